/**
 * Beem Africa SMS (https://apisms.beem.africa). Format from Beem's API guide and its own samples
 * (github.com/beemafrica/beem-sms-api-sample: send/, callback/, delivery-reports/):
 * - `POST /v1/send`, HTTP Basic `api_key:secret_key`, JSON `{ source_addr, encoding: 0,
 *   schedule_time: '', message, recipients: [{ recipient_id, dest_addr: '255…' }] }`.
 * - Accepted: `{ successful: true, request_id, code: 100, message: 'Message Submitted
 *   Successfully', valid, invalid, duplicates }`; a number Beem will not send to is counted in
 *   `invalid` (with `valid: 0`). Refused: `{ code, message }` (401, code 120 "Invalid
 *   Authentication Parameters") or `{ data: { code, message } }` (e.g. 102 insufficient balance,
 *   111 invalid sender id).
 * - Delivery reports: Beem POSTs JSON `{ request_id, recipient_id, dest_addr, Status }` to the
 *   callback URL set in the vendor's dashboard; it carries no signature, so the route must be
 *   authenticated by a secret in the URL. Beem's samples spell the field `Status`; `status` is read too.
 * - Delivery reports by polling too: `GET https://dlrapi.beem.africa/public/v1/delivery-reports
 *   ?dest_addr=…&request_id=…` (same Basic auth, Beem's delivery-reports sample) answers a list of
 *   `{ dest_addr, request_id, status }` with status PENDING, DELIVERED or UNDELIVERED.
 * One recipient per request, so Beem's `request_id` names the message.
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
import { type CallbackInput, type DeliveryReport, type DeliveryState, SmsRejected, type SmsProvider } from './sms-provider.js';

export const BEEM_BASE_URL = 'https://apisms.beem.africa';
export const BEEM_DLR_BASE_URL = 'https://dlrapi.beem.africa';
const SUCCESS_CODE = 100;

function refusal(body: unknown): { code: number | null; message: string | null } {
  const inner = isRecord(body) && isRecord(body.data) ? body.data : body;
  if (!isRecord(inner)) return { code: null, message: null };
  return {
    code: typeof inner.code === 'number' ? inner.code : Number.isFinite(Number(inner.code)) ? Number(inner.code) : null,
    message: typeof inner.message === 'string' ? inner.message : null,
  };
}

function refuseUnlessOk(status: number, text: string): void {
  if (status >= 200 && status < 300) return;
  throw new SmsRejected(
    refusal(parseJson(text)).message ?? providerWords(text, `Beem answered HTTP ${status}`),
    !isTransientStatus(status),
  );
}

function stateOf(status: string): DeliveryState {
  const s = status.toUpperCase();
  if (s === 'DELIVERED') return 'delivered';
  if (['PENDING', 'SUBMITTED', 'ENROUTE', 'ACCEPTED', 'SENT'].includes(s)) return 'pending';
  return 'failed';
}

export function beemProvider(options: DriverOptions = {}): SmsProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS;
  return {
    name: 'beem',

    async send(credentials, request, signal) {
      const url = `${credentials.baseUrl ?? BEEM_BASE_URL}/v1/send`;
      const answer = await callGateway(
        'Beem',
        url,
        {
          method: 'POST',
          headers: {
            authorization: basicAuth(credentials.apiKey, credentials.secret),
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            source_addr: credentials.senderId,
            encoding: 0,
            schedule_time: '',
            message: request.text,
            recipients: [{ recipient_id: 1, dest_addr: request.to }],
          }),
        },
        timeoutMs,
        signal,
      );
      refuseUnlessOk(answer.status, answer.text);
      const body = parseJson(answer.text);
      const { code, message } = refusal(body);
      if (!isRecord(body) || code !== SUCCESS_CODE || body.request_id === undefined || body.request_id === null) {
        // A 2xx carrying a Beem error code is a refusal; one with no code at all says nothing was
        // queued, so the outbox may try again.
        throw new SmsRejected(message ?? 'Beem gave an answer it does not document', code !== null);
      }
      if (body.valid === 0 && Number(body.invalid) > 0) throw new SmsRejected('Invalid phone number', true);
      return { providerMessageId: String(body.request_id), segments: countSegments(request.text).segments, costCents: null };
    },

    parseDeliveryReport(input: CallbackInput): DeliveryReport[] | null {
      const body = parseJson(input.body);
      if (!isRecord(body)) return null;
      const status = body.Status ?? body.status;
      const requestId = body.request_id;
      if (typeof status !== 'string' || (typeof requestId !== 'string' && typeof requestId !== 'number') || body.dest_addr === undefined) {
        return null;
      }
      return [{ providerMessageId: String(requestId), state: stateOf(status), detail: status }];
    },

    async fetchDeliveryReports(credentials, messages, signal) {
      const reports: DeliveryReport[] = [];
      for (const { providerMessageId, to } of messages) {
        const query = new URLSearchParams({ dest_addr: to, request_id: providerMessageId });
        const answer = await callGateway(
          'Beem',
          `${credentials.baseUrl ?? BEEM_DLR_BASE_URL}/public/v1/delivery-reports?${query}`,
          { method: 'GET', headers: { authorization: basicAuth(credentials.apiKey, credentials.secret), accept: 'application/json' } },
          timeoutMs,
          signal,
        );
        refuseUnlessOk(answer.status, answer.text);
        const body = parseJson(answer.text);
        const rows = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.data) ? body.data : [body];
        const row = rows.find((r): r is Record<string, unknown> => isRecord(r) && String(r.request_id) === providerMessageId);
        const status = row?.status ?? row?.Status;
        if (typeof status === 'string') reports.push({ providerMessageId, state: stateOf(status), detail: status });
      }
      return reports;
    },
  };
}
