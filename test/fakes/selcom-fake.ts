/**
 * A local Selcom API gateway: it recomputes every request's digest with the merchant's secret
 * (else 401 in Selcom's words), checks the fields of a minimal order and a wallet push, answers
 * order status, and posts Selcom's signed webhook for an order to the URL the order carried
 * (decoded from base64), as often as asked, late, for another amount, or a forged one; `settle`
 * moves an order on without any webhook (one that was lost), which only the status query learns.
 */
import { selcomDigest, selcomHeaders } from '../../server/src/mobile-money/selcom.js';
import { type FakeAnswer, HttpFake, json, type RecordedRequest } from './http-fake.js';

export interface SelcomMerchant {
  apiKey: string;
  apiSecret: string;
  vendor: string;
}

export interface SelcomOrder {
  order_id: string;
  amount: number;
  buyer_phone: string;
  webhook: string;
  pushed_to: string | null;
  payment_status: 'PENDING' | 'COMPLETED' | 'REJECTED';
}

const answer = (resultcode: string, message: string, data: unknown[] = [], status = 200) =>
  json(status, {
    reference: `SEL${Date.now() % 1_000_000}`,
    transid: null,
    resultcode,
    result: resultcode === '000' ? 'SUCCESS' : 'FAIL',
    message,
    data,
  });

/** Selcom's own reference for the payment of an order (one per order, as Selcom's are). */
export const paymentRef = (orderId: string) => `R${orderId}`;

export class SelcomFake extends HttpFake {
  readonly orders = new Map<string, SelcomOrder>();
  /** Where the webhook really goes when the order's URL names a public origin the test does not serve. */
  webhookOrigin: string | null = null;

  constructor(readonly merchant: SelcomMerchant) {
    super((req, scripted) => this.route(req, scripted));
  }

  private route(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const url = new URL(req.url, 'http://fake');
    let fields: Record<string, string | number>;
    try {
      fields = req.method === 'GET' ? Object.fromEntries(url.searchParams) : (JSON.parse(req.body) as Record<string, string | number>);
    } catch {
      return answer('400', 'Invalid JSON', [], 400);
    }
    const h = req.headers;
    const signed = String(h['signed-fields'] ?? '')
      .split(',')
      .filter(Boolean);
    const valid =
      h.authorization === `SELCOM ${Buffer.from(this.merchant.apiKey).toString('base64')}` &&
      h['digest-method'] === 'HS256' &&
      typeof h.timestamp === 'string' &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(h.timestamp) &&
      signed.join(',') === Object.keys(fields).join(',') &&
      h.digest === selcomDigest(this.merchant.apiSecret, h.timestamp, fields, signed);
    if (!valid) return answer('403', 'Invalid Authentication', [], 401);

    if (req.method === 'POST' && url.pathname === '/v1/checkout/create-order-minimal') {
      for (const f of ['vendor', 'order_id', 'buyer_email', 'buyer_name', 'buyer_phone', 'amount', 'currency', 'webhook', 'no_of_items']) {
        if (fields[f] === undefined || fields[f] === '') return answer('400', `${f} is required`, [], 400);
      }
      if (fields.vendor !== this.merchant.vendor) return answer('400', 'Invalid vendor', [], 400);
      if (!/^255\d{9}$/.test(String(fields.buyer_phone))) return answer('400', 'Invalid buyer_phone', [], 400);
      if (!Number.isInteger(fields.amount) || Number(fields.amount) <= 0 || fields.currency !== 'TZS')
        return answer('400', 'Invalid amount or currency', [], 400);
      if (this.orders.has(String(fields.order_id))) return answer('400', 'Duplicate order_id', [], 400);
      const webhook = Buffer.from(String(fields.webhook), 'base64').toString('utf8');
      this.orders.set(String(fields.order_id), {
        order_id: String(fields.order_id),
        amount: Number(fields.amount),
        buyer_phone: String(fields.buyer_phone),
        webhook,
        pushed_to: null,
        payment_status: 'PENDING',
      });
      return answer('000', 'Order creation successful', [
        { gateway_buyer_uuid: 'gb-1', payment_token: '80008000', qr: 'QR', payment_gateway_url: 'aHR0cHM6Ly9leGFtcGxl' },
      ]);
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/wallet-payment') {
      const order = this.orders.get(String(fields.order_id));
      if (!order) return answer('400', 'Order not found', [], 400);
      if (!fields.transid || !/^255\d{9}$/.test(String(fields.msisdn))) return answer('400', 'Invalid transid or msisdn', [], 400);
      if (scripted !== 'ok') return answer('999', scripted.reject);
      order.pushed_to = String(fields.msisdn);
      return json(200, {
        reference: 'SEL-PUSH',
        transid: fields.transid,
        resultcode: '111',
        result: 'PENDING',
        message: 'Request in progress. You will receive a callback shortly',
        data: [],
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/checkout/order-status') {
      const order = this.orders.get(String(fields.order_id));
      if (!order) return answer('400', 'Order not found', [], 400);
      return answer('000', 'Order fetch successful', [
        {
          order_id: order.order_id,
          amount: String(order.amount),
          payment_status: order.payment_status,
          reference: paymentRef(order.order_id),
          msisdn: order.pushed_to,
        },
      ]);
    }
    return answer('404', 'Not Found', [], 404);
  }

  /** The customer answered, and the webhook telling us was lost: only the order's status says so. */
  settle(orderId: string, status: 'COMPLETED' | 'REJECTED' = 'COMPLETED'): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`Selcom has no order ${orderId}`);
    order.payment_status = status;
  }

  /**
   * Posts Selcom's signed webhook for an order; `forge` signs it with the wrong secret, `amount`
   * reports another amount paid than the order's (shillings). `published` sends it exactly as
   * Selcom's API reference shows it: `transid, order_id, reference, result, resultcode,
   * payment_status`, all signed, and no amount. `at` is the `Timestamp` it is signed at (now
   * otherwise); `unsigned` leaves those fields in the body but out of `Signed-Fields`.
   */
  async webhook(
    orderId: string,
    status: 'COMPLETED' | 'REJECTED' = 'COMPLETED',
    opts: { forge?: boolean; amount?: number; published?: boolean; at?: number; unsigned?: string[] } = {},
  ): Promise<number> {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`Selcom has no order ${orderId}`);
    order.payment_status = status;
    const published = {
      transid: orderId,
      order_id: orderId,
      reference: paymentRef(orderId),
      result: 'SUCCESS',
      resultcode: '000',
      payment_status: status,
    };
    const body: Record<string, string> = opts.published
      ? published
      : { ...published, channel: 'AIRTELMONEY', amount: String(opts.amount ?? order.amount), phone: order.pushed_to ?? '' };
    const url = this.webhookOrigin ? order.webhook.replace(/^https?:\/\/[^/]+/, this.webhookOrigin) : order.webhook;
    return this.post(url, body, opts);
  }

  /** Signs `body` as Selcom does (over the fields not named in `unsigned`) and posts it. */
  private async post(url: string, body: Record<string, string>, opts: { forge?: boolean; at?: number; unsigned?: string[] }) {
    const signed = Object.fromEntries(Object.entries(body).filter(([k]) => !opts.unsigned?.includes(k)));
    const headers = selcomHeaders(this.merchant.apiKey, opts.forge ? 'not-the-secret' : this.merchant.apiSecret, signed, opts.at);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  }

  /**
   * Posts Selcom's signed webhook for a payment the customer made to the merchant's till without
   * a push (no order of ours: `order_id` is Selcom's), to a callback URL a test gives.
   */
  async customerPaid(
    callbackUrl: string,
    p: { transid: string; amount: string; phone: string; channel?: string },
    opts: { forge?: boolean } = {},
  ): Promise<number> {
    const body = {
      result: 'SUCCESS',
      resultcode: '000',
      order_id: p.transid,
      transid: p.transid,
      reference: `R${p.transid}`,
      channel: p.channel ?? 'MPESA',
      amount: p.amount,
      phone: p.phone,
      payment_status: 'COMPLETED',
    };
    return this.post(callbackUrl, body, opts);
  }
}
