/**
 * Selcom checkout by USSD push: create a minimal order, then push it to the payer's wallet
 * (M-Pesa, Tigo Pesa, Airtel Money, HaloPesa, AzamPesa); Selcom posts the result to the order's
 * webhook, and the order's status can be asked for when the webhook never came.
 *
 * Wire format, from Selcom's API gateway reference (developers.selcommobile.com, "Checkout API")
 * as its own client libraries build it (`selcom-apigw-client` for Node, C# and PHP):
 * - every request is signed: `Authorization: SELCOM base64(api_key)`, `Digest-Method: HS256`,
 *   `Timestamp` (ISO 8601 with the zone offset), `Signed-Fields` (the body's or query's keys in
 *   order) and `Digest` = base64 HMAC-SHA256 with the API secret over
 *   `timestamp={Timestamp}&{field}={value}&…` in that order;
 * - `POST /v1/checkout/create-order-minimal`: `vendor`, `order_id`, `buyer_email`, `buyer_name`,
 *   `buyer_phone` (255…), `amount` (whole TZS), `currency`, `webhook` (base64 of the URL),
 *   `no_of_items`;
 * - `POST /v1/checkout/wallet-payment`: `transid`, `order_id`, `msisdn`;
 * - `GET /v1/checkout/order-status?order_id=`: `data[0].payment_status` COMPLETED, PENDING,
 *   CANCELLED, REJECTED or USERCANCELED;
 * - every answer: `{ reference, transid, resultcode, result, message, data }`, resultcode `000`
 *   for success; the webhook posts `order_id`, `transid`, `reference`, `result`, `resultcode`,
 *   `payment_status` (no amount: it confirms the order at the amount asked), signed with the same
 *   headers, which are checked here (the decisive fields must be signed, the timestamp recent); a
 *   wallet push answers `111` ("request in progress") until the payer confirms.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { callProvider, isTransient, providerMessage } from './http.js';
import { EAT, localDate, localTime } from '@duka/shared';
import {
  CallbackRejected,
  type PaymentCallbackInput,
  type PaymentOutcome,
  type PaymentProvider,
  PaymentRejected,
  type PaymentResult,
} from './provider.js';

export const SELCOM_LIVE_URL = 'https://apigw.selcommobile.com';

export interface SelcomConfig {
  apiKey: string;
  apiSecret: string;
  /** The merchant's vendor (till) id. */
  vendor: string;
  baseUrl: string;
  /** Where Selcom posts results: our callback route. */
  webhookUrl: string;
  timeoutMs: number;
}

type Fields = Record<string, string | number>;

/** Selcom's timestamp: local East Africa time with its offset, as its clients send it. */
export function selcomTimestamp(ms: number): string {
  return `${localDate(ms, EAT)}T${localTime(ms, EAT)}+03:00`;
}

export function selcomDigest(secret: string, timestamp: string, fields: Fields, signed: string[]): string {
  const data = [`timestamp=${timestamp}`, ...signed.map((k) => `${k}=${fields[k] ?? ''}`)].join('&');
  return createHmac('sha256', secret).update(data).digest('base64');
}

export function selcomHeaders(apiKey: string, apiSecret: string, fields: Fields, now = Date.now()): Record<string, string> {
  const timestamp = selcomTimestamp(now);
  const signed = Object.keys(fields);
  return {
    authorization: `SELCOM ${Buffer.from(apiKey).toString('base64')}`,
    'digest-method': 'HS256',
    digest: selcomDigest(apiSecret, timestamp, fields, signed),
    timestamp,
    'signed-fields': signed.join(','),
  };
}

/**
 * The webhook's fields that decide what it does: which order, which payment (stored once per
 * reference) and its outcome. Each must be signed, and so must `amount` when the body carries
 * one (Selcom's published webhook has none: it confirms the order at the amount asked).
 */
const DECISIVE = ['order_id', 'reference', 'payment_status'];

/**
 * A signed webhook is taken this long either side of its `Timestamp` (wall clock, as Selcom's is):
 * an old one captured and replayed is refused. A lost or late one is the status query's job.
 */
export const WEBHOOK_WINDOW_MS = 15 * 60_000;

const STATUS: Record<string, PaymentOutcome> = {
  COMPLETED: 'paid',
  PENDING: 'pending',
  INPROGRESS: 'pending',
  CANCELLED: 'failed',
  REJECTED: 'failed',
  USERCANCELED: 'failed',
};

export function selcomProvider(cfg: SelcomConfig): PaymentProvider {
  const post = (path: string, fields: Fields, signal?: AbortSignal) =>
    callProvider(
      'Selcom',
      `${cfg.baseUrl}/v1${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...selcomHeaders(cfg.apiKey, cfg.apiSecret, fields) },
        body: JSON.stringify(fields),
      },
      cfg.timeoutMs,
      signal,
    );
  const refuse = (status: number, body: Record<string, unknown>): never => {
    throw new PaymentRejected(`Selcom: ${providerMessage(body, `HTTP ${status}`)}`, !isTransient(status));
  };
  const ok = (status: number, body: Record<string, unknown>) => status === 200 && body.resultcode === '000';

  return {
    name: 'selcom',

    async startPush(request, signal) {
      const order = await post(
        '/checkout/create-order-minimal',
        {
          vendor: cfg.vendor,
          order_id: request.reference,
          buyer_email: 'billing@duka.invalid',
          buyer_name: request.description.slice(0, 50),
          buyer_phone: request.phone,
          amount: request.amountTzs,
          currency: 'TZS',
          webhook: Buffer.from(cfg.webhookUrl).toString('base64'),
          no_of_items: 1,
        },
        signal,
      );
      if (!ok(order.status, order.body)) refuse(order.status, order.body);
      const push = await post(
        '/checkout/wallet-payment',
        { transid: request.reference, order_id: request.reference, msisdn: request.phone },
        signal,
      );
      // A push answers 111 (in progress: the payer has not confirmed yet) or 000.
      if (!(push.status === 200 && (push.body.resultcode === '111' || push.body.resultcode === '000'))) refuse(push.status, push.body);
      return { providerRef: typeof push.body.reference === 'string' ? push.body.reference : null };
    },

    parseCallback(input: PaymentCallbackInput): PaymentResult {
      let body: Fields;
      try {
        body = JSON.parse(input.body) as Fields;
      } catch {
        throw new CallbackRejected('the body is not JSON');
      }
      const h = input.headers;
      const signed = (h['signed-fields'] ?? '').split(',').filter(Boolean);
      if (h.authorization !== `SELCOM ${Buffer.from(cfg.apiKey).toString('base64')}` || !h.timestamp || !h.digest)
        throw new CallbackRejected('the webhook is not signed');
      const unsigned = [...DECISIVE, ...(body.amount == null ? [] : ['amount'])].filter((f) => !signed.includes(f));
      if (unsigned.length) throw new CallbackRejected(`${unsigned.join(', ')} must be among the signed fields`);
      const expected = Buffer.from(selcomDigest(cfg.apiSecret, h.timestamp, body, signed));
      const given = Buffer.from(h.digest);
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        throw new CallbackRejected('the webhook signature is wrong');
      // Checked after the signature, so a forger learns nothing about the window from the answer.
      const at = Date.parse(h.timestamp);
      if (!Number.isFinite(at) || Math.abs(Date.now() - at) > WEBHOOK_WINDOW_MS)
        throw new CallbackRejected(`the webhook's timestamp is more than ${WEBHOOK_WINDOW_MS / 60_000} minutes from now`);
      const status = String(body.payment_status ?? '').toUpperCase();
      return {
        reference: String(body.order_id),
        providerRef: body.reference == null || body.reference === '' ? null : String(body.reference),
        outcome: STATUS[status] ?? 'pending',
        amountTzs: body.amount == null ? null : Number(body.amount),
        detail: String(body.message ?? body.result ?? status),
        payer: body.phone == null ? null : String(body.phone),
        network: body.channel == null ? null : String(body.channel),
      };
    },

    async queryStatus(reference, providerRef, signal) {
      const fields = { order_id: reference };
      const { status, body } = await callProvider(
        'Selcom',
        `${cfg.baseUrl}/v1/checkout/order-status?${new URLSearchParams(fields)}`,
        { method: 'GET', headers: selcomHeaders(cfg.apiKey, cfg.apiSecret, fields) },
        cfg.timeoutMs,
        signal,
      );
      if (!ok(status, body)) refuse(status, body);
      const order = (Array.isArray(body.data) ? body.data[0] : undefined) as Fields | undefined;
      const state = String(order?.payment_status ?? 'PENDING').toUpperCase();
      return {
        reference,
        providerRef: order?.reference == null ? providerRef : String(order.reference),
        outcome: STATUS[state] ?? 'pending',
        amountTzs: order?.amount == null ? null : Number(order.amount),
        detail: state,
      };
    },
  };
}
