/**
 * A shop whose till sells offline and whose customers pay into its own Selcom account: the owner,
 * a product, a registered till, the account, and the calls the verification and reconciliation
 * tests make (push a till's sales, have a customer pay, run the matching job).
 */
import { CollectionAccount, Envelope, newId, PushResponse, type Transaction } from '@duka/shared';
import { expect } from 'vitest';
import { runPaymentMatching } from '../../server/src/modules/payments/inbox/matching-job.js';
import { SelcomFake } from '../fakes/selcom-fake.js';
import { registerOwner, type Session } from '../setup/factories.js';
import type { Listening, TestApp } from '../setup/test-app.js';

export const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-secret-5e1d', vendor: 'TILL61000042' };
export const AZAM = { appName: 'duka-shop', clientId: 'azam-client-7731', clientSecret: 'azam-secret-9f2e', apiKey: 'azam-apikey-44aa' };
export const MIN = 60_000;
const s_suffix = () => Math.random().toString(36).slice(2, 7);

export interface OfflineShop {
  owner: Session;
  product: { id: string };
  deviceId: string;
  /** The store's Selcom account's callback URL as this test's listener serves it; null without an account. */
  callback: string | null;
  seq: number;
}

/** `app` and `http`: read when called (the test makes them in its beforeAll). */
export function offlineShops(app: () => TestApp, http: () => Listening) {
  const selcom = new SelcomFake(SELCOM);
  const served = (url: string) => url.replace(/^https?:\/\/[^/]+/, http().origin);

  async function addAccount(owner: Session, body: Record<string, unknown>): Promise<string> {
    const t = app();
    const res = await t.request('POST', '/payments/collection-accounts', { token: owner.token, body });
    expect(res.status, res.text).toBe(201);
    return served(Envelope(CollectionAccount).parse(res.body).data.callback_url);
  }

  async function shop(opts: { account?: boolean; owner?: Session } = {}): Promise<OfflineShop> {
    const t = app();
    const owner = opts.owner ?? (await registerOwner(t));
    const created = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: `Sukari 1kg ${s_suffix()}`, selling_price: 1000, stock: 500 },
    });
    expect(created.status, created.text).toBe(200);
    const deviceId = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: deviceId, name: 'Till 1' } })).status).toBe(
      200,
    );
    const callback =
      opts.account === false
        ? null
        : await addAccount(owner, { provider: 'selcom', label: 'Selcom', store_id: owner.storeId, credentials: SELCOM });
    return { owner, product: created.body.data, deviceId, callback, seq: 0 };
  }

  /** A sale as a till queues it: `qty` units at TZS 1,000, made at `at` (epoch ms). */
  const sale = (s: OfflineShop, qty: number, method: string, extra: Record<string, unknown> = {}, at = app().clock.now()) => ({
    id: newId(),
    seq: ++s.seq,
    type: 'sale.create',
    created_at: new Date(at).toISOString(),
    payload: {
      id: newId(),
      client_receipt_number: `T1-${s.seq}`,
      lines: [{ product_id: s.product.id, qty, unit_price: 1000 }],
      payment_method: method,
      ...extra,
    },
  });

  /** Pushes the mutations; the ids of the sales booked, in order. */
  async function push(s: OfflineShop, mutations: Array<ReturnType<typeof sale>>): Promise<string[]> {
    const res = await app().request('POST', '/sync/push', { token: s.owner.token, body: { device_id: s.deviceId, mutations } });
    expect(res.status, res.text).toBe(200);
    const results = Envelope(PushResponse).parse(res.body).data.results;
    expect(results.map((r) => r.status)).toEqual(mutations.map(() => 'applied'));
    return results.map((r) => r.result!.transaction_id as string);
  }

  /** A new access token for the owner, when the test's clock has moved past the old one's life. */
  async function awake(s: OfflineShop): Promise<void> {
    const res = await app().request('POST', '/auth/refresh', { body: { refresh_token: s.owner.refresh } });
    expect(res.status, res.text).toBe(200);
    s.owner.token = res.body.data.access_token;
    s.owner.refresh = res.body.data.refresh_token;
  }

  async function saleOf(s: OfflineShop, id: string): Promise<Transaction> {
    const read = () => app().request('GET', `/pos/transactions/${id}`, { token: s.owner.token });
    let res = await read();
    if (res.status === 401) {
      await awake(s);
      res = await read();
    }
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  /** What a sale's verification is now. */
  const verification = async (s: OfflineShop, id: string) => (await saleOf(s, id)).payment_verification;

  /** The customer pays the store's till number with their wallet; Selcom posts its signed webhook. */
  async function customerPays(url: string, transid: string, amount: number, channel = 'MPESA', phone = '255754000111') {
    expect(await selcom.customerPaid(url, { transid, amount: String(amount), phone, channel })).toBe(200);
  }

  const payment = (orgId: string, providerRef: string) =>
    app()
      .db.db.selectFrom('received_payments')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('provider_ref', '=', providerRef)
      .executeTakeFirstOrThrow();

  const runJob = () => runPaymentMatching(app().deps);

  return { selcom, served, addAccount, shop, awake, sale, push, saleOf, verification, customerPays, payment, runJob };
}
