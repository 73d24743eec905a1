/**
 * NextSMS Tanzania (https://messaging-service.co.tz). Format from NextSMS's API documentation
 * (docs.nextsms.co.tz: "Send SMS", "Delivery Reports") and open-source clients of it:
 * - `POST /api/sms/v1/text/single`, HTTP Basic `username:password`, JSON `{ from, to: '255…',
 *   text, reference }`.
 * - Answer `{ messages: [{ to, status: { groupId, groupName, id, name, description }, messageId,
 *   smsCount }] }`; groupName `PENDING` means queued, `REJECTED` a refusal whose `description`
 *   says why (sender, destination, credits). A bad login is HTTP 401.
 * - Delivery reports only by polling: `GET /api/sms/v1/reports?messageId=…` answers `{ results:
 *   [{ messageId, to, sentAt, doneAt, smsCount, status: { groupName, name, description }, error }] }`
 *   with groupName PENDING, DELIVERED, UNDELIVERABLE, EXPIRED or REJECTED. NextSMS posts no
 *   callbacks, so `parseDeliveryReport` never recognises a body.
 */
import { countSegments } from './segments.js';
import {
  basicAuth,
  callGateway,
  DEFAULT_SMS_TIMEOUT_MS,
  type DriverOptions,
  isRecord,
  isTransientStatus,
  parseJson,
  providerWords,
} from './http.js';
import { type DeliveryReport, type DeliveryState, type SmsCredentials, SmsRejected, type SmsProvider } from './sms-provider.js';

export const NEXTSMS_BASE_URL = 'https://messaging-service.co.tz';

/** The words of an error body, in the shapes NextSMS (an Infobip-style API) uses. */
function errorWords(text: string, status: number): string {
  const body = parseJson(text);
  if (isRecord(body)) {
    const exception =
      isRecord(body.requestError) && isRecord(body.requestError.serviceException) ? body.requestError.serviceException : null;
    for (const candidate of [exception?.text, body.message, body.error]) {
      if (typeof candidate === 'string' && candidate) return candidate;
    }
  }
  return providerWords(text, `NextSMS answered HTTP ${status}`);
}

function statusOf(value: unknown): { group: string; words: string } {
  if (!isRecord(value)) return { group: '', words: '' };
  const group = typeof value.groupName === 'string' ? value.groupName.toUpperCase() : '';
  const words = [value.name, value.description].filter((w): w is string => typeof w === 'string' && w.length > 0).join(': ');
  return { group, words };
}

function stateOf(group: string): DeliveryState {
  if (group === 'DELIVERED') return 'delivered';
  if (group === 'PENDING' || group === '') return 'pending';
  return 'failed';
}

function refuseUnlessOk(status: number, text: string): void {
  if (status < 200 || status >= 300) throw new SmsRejected(errorWords(text, status), !isTransientStatus(status));
}

export function nextSmsProvider(options: DriverOptions = {}): SmsProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS;
  const headers = (c: SmsCredentials) => ({ authorization: basicAuth(c.apiKey, c.secret), accept: 'application/json' });

  return {
    name: 'nextsms',

    async send(credentials, request, signal) {
      const answer = await callGateway(
        'NextSMS',
        `${credentials.baseUrl ?? NEXTSMS_BASE_URL}/api/sms/v1/text/single`,
        {
          method: 'POST',
          headers: { ...headers(credentials), 'content-type': 'application/json' },
          body: JSON.stringify({ from: credentials.senderId, to: request.to, text: request.text, reference: request.reference }),
        },
        timeoutMs,
        signal,
      );
      refuseUnlessOk(answer.status, answer.text);
      const body = parseJson(answer.text);
      const message = isRecord(body) && Array.isArray(body.messages) ? body.messages.find(isRecord) : undefined;
      if (!message) throw new SmsRejected('NextSMS gave an answer it does not document', false);
      const { group, words } = statusOf(message.status);
      if (group === 'REJECTED' || group === 'UNDELIVERABLE') throw new SmsRejected(words || group, true);
      if (typeof message.messageId !== 'string' && typeof message.messageId !== 'number') {
        throw new SmsRejected('NextSMS accepted the message without an id', false);
      }
      const smsCount = Number(message.smsCount);
      return {
        providerMessageId: String(message.messageId),
        segments: Number.isInteger(smsCount) && smsCount > 0 ? smsCount : countSegments(request.text).segments,
        costCents: null,
      };
    },

    parseDeliveryReport() {
      return null;
    },

    async fetchDeliveryReports(credentials, messages, signal) {
      const reports: DeliveryReport[] = [];
      // The reports API takes one messageId a call; the outbox polls a handful at a time.
      for (const { providerMessageId: id } of messages) {
        const url = `${credentials.baseUrl ?? NEXTSMS_BASE_URL}/api/sms/v1/reports?${new URLSearchParams({ messageId: id })}`;
        const answer = await callGateway('NextSMS', url, { method: 'GET', headers: headers(credentials) }, timeoutMs, signal);
        refuseUnlessOk(answer.status, answer.text);
        const body = parseJson(answer.text);
        const results = isRecord(body) && Array.isArray(body.results) ? body.results.filter(isRecord) : [];
        for (const result of results) {
          if (String(result.messageId) !== id) continue;
          const { group, words } = statusOf(result.status);
          const error = statusOf(result.error);
          const failed = stateOf(group) === 'failed';
          reports.push({
            providerMessageId: id,
            state: stateOf(group),
            detail: failed && error.words ? `${words}; ${error.words}` : words || group,
          });
        }
      }
      return reports;
    },
  };
}
