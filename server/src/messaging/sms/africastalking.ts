/**
 * Africa's Talking SMS. Format from developers.africastalking.com (SMS: sending, delivery reports,
 * status codes) and its official client `africastalking` 0.8.3 (lib/sms.js, lib/common.js):
 * - `POST https://api.africastalking.com/version1/messaging` (username `sandbox`:
 *   `api.sandbox.africastalking.com`), header `apiKey`, `Accept: application/json`, form-encoded
 *   `username`, `to` (+255…), `message`, `from` (sender id or short code).
 * - Answer 201 `{ SMSMessageData: { Message, Recipients: [{ statusCode, number, status, cost:
 *   'TZS 20.0000', messageId }] } }`; statusCode 100/101/102 mean Processed/Sent/Queued, 4xx
 *   refusals (402 InvalidSenderId, 403 InvalidPhoneNumber, 405 InsufficientBalance, …), 500/501
 *   gateway faults. A refusal of the whole request comes with no recipients and the reason in
 *   `Message`; a bad key is HTTP 401 with a text body.
 * - Delivery reports: form-encoded POST `id, status, phoneNumber, networkCode, failureReason,
 *   retryCount` to the callback set in the dashboard; unsigned, so the route needs a URL secret.
 * The official package is not used: it fixes the host inside the module (so tests cannot point it
 * at a local fake), pulls in axios, joi, lodash and google-libphonenumber, and treats any answer
 * but 201 as an untyped rejection, which would lose the transient/permanent distinction.
 */
import { toCents } from '@duka/shared';
import { countSegments } from './segments.js';
import { callGateway, DEFAULT_SMS_TIMEOUT_MS, type DriverOptions, isRecord, isTransientStatus, parseJson, providerWords } from './http.js';
import {
  type CallbackInput,
  type DeliveryReport,
  type DeliveryState,
  type SmsCredentials,
  SmsRejected,
  type SmsProvider,
} from './sms-provider.js';

export const AFRICASTALKING_BASE_URL = 'https://api.africastalking.com';
export const AFRICASTALKING_SANDBOX_URL = 'https://api.sandbox.africastalking.com';

const ACCEPTED = new Set([100, 101, 102]);
/** Gateway-side faults on one recipient; trying again later can succeed. */
const TRANSIENT = new Set([500, 501]);

/** `TZS 20.0000` -> 2000; the sandbox's `0` and anything unreadable -> what we can tell. */
function costCents(cost: unknown): number | null {
  if (typeof cost !== 'string') return null;
  const amount = /([0-9]+(?:\.[0-9]+)?)\s*$/.exec(cost.trim());
  return amount ? toCents(Number(amount[1])) : null;
}

function stateOf(status: string): DeliveryState {
  if (status === 'Success') return 'delivered';
  if (status === 'Sent' || status === 'Submitted' || status === 'Buffered') return 'pending';
  return 'failed';
}

/** The sandbox is a separate host, chosen (as the official client does) by the username `sandbox`. */
export function africasTalkingBaseUrl(credentials: SmsCredentials): string {
  return credentials.baseUrl ?? (credentials.secret === 'sandbox' ? AFRICASTALKING_SANDBOX_URL : AFRICASTALKING_BASE_URL);
}

export function africasTalkingProvider(options: DriverOptions = {}): SmsProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS;
  return {
    name: 'africastalking',

    async send(credentials, request, signal) {
      const form = new URLSearchParams({ username: credentials.secret, to: `+${request.to}`, message: request.text });
      if (credentials.senderId) form.set('from', credentials.senderId);
      const answer = await callGateway(
        "Africa's Talking",
        `${africasTalkingBaseUrl(credentials)}/version1/messaging`,
        {
          method: 'POST',
          headers: { apiKey: credentials.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        },
        timeoutMs,
        signal,
      );
      if (answer.status < 200 || answer.status >= 300) {
        throw new SmsRejected(
          providerWords(answer.text, `Africa's Talking answered HTTP ${answer.status}`),
          !isTransientStatus(answer.status),
        );
      }
      const data = parseJson(answer.text);
      const sms = isRecord(data) && isRecord(data.SMSMessageData) ? data.SMSMessageData : null;
      if (!sms) throw new SmsRejected("Africa's Talking gave an answer it does not document", false);
      const recipient = Array.isArray(sms.Recipients) ? sms.Recipients.find(isRecord) : undefined;
      if (!recipient) {
        // e.g. `{ Message: 'InvalidSenderId', Recipients: [] }`: the request itself was refused.
        throw new SmsRejected(
          typeof sms.Message === 'string' && sms.Message ? sms.Message : "Africa's Talking sent the message to nobody",
          true,
        );
      }
      const statusCode = Number(recipient.statusCode);
      const status = typeof recipient.status === 'string' ? recipient.status : `status ${statusCode}`;
      if (!ACCEPTED.has(statusCode)) throw new SmsRejected(status, !TRANSIENT.has(statusCode));
      if (typeof recipient.messageId !== 'string' || !recipient.messageId) {
        throw new SmsRejected("Africa's Talking accepted the message without an id", false);
      }
      return {
        providerMessageId: recipient.messageId,
        segments: countSegments(request.text).segments,
        costCents: costCents(recipient.cost),
      };
    },

    parseDeliveryReport(input: CallbackInput): DeliveryReport[] | null {
      if (!input.contentType?.toLowerCase().includes('application/x-www-form-urlencoded')) return null;
      const form = new URLSearchParams(input.body);
      const id = form.get('id');
      const status = form.get('status');
      if (!id || !status || !form.has('phoneNumber')) return null;
      const reason = form.get('failureReason');
      return [{ providerMessageId: id, state: stateOf(status), detail: reason ? `${status}: ${reason}` : status }];
    },
  };
}
