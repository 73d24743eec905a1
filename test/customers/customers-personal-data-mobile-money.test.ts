/**
 * A customer who paid by mobile money pushed to their phone (the local Selcom fake, over real
 * HTTP): the export lists what was asked of their phone and what Selcom reported paid; the erasure
 * leaves neither their phone (in any form, the provider's raw report included) nor their name
 * anywhere, and keeps the amounts.
 */
import { randomInt } from 'node:crypto';
import { CustomerErasure, CustomerPersonalData, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SelcomFake } from '../fakes/selcom-fake.js';
import { e164 } from '../setup/factories.js';
import { ask, checkout, pushShop } from '../setup/push-factories.js';
import { databaseSnapshot } from '../setup/tenant-fixtures.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-secret-5e1d', vendor: 'TILL61000042' };

describe('customers: personal data of a mobile-money payer', () => {
  let t: TestApp;
  let http: Listening;
  const selcom = new SelcomFake(SELCOM);
  beforeAll(async () => {
    await selcom.start();
    t = await createTestApp({ config: { SELCOM_URL: selcom.url, PUBLIC_URL: 'https://duka.example', PAYMENT_TIMEOUT_MS: 300 } });
    http = await listen(t);
    selcom.webhookOrigin = http.origin;
  });
  afterAll(async () => {
    await http.close();
    await selcom.stop();
    await t.close();
  });

  it('exports the payment asked and the payment reported, then erases the payer and keeps the money', async () => {
    const s = await pushShop(t, SELCOM, 'selcom');
    const phone = `0754${String(randomInt(1_000_000)).padStart(6, '0')}`;
    const created = await t.request('POST', '/customers', { token: s.owner.token, body: { name: 'Halima Kisanduku', phone } });
    expect(created.status, created.text).toBe(200);
    const customerId = created.body.data.id as string;
    const body = checkout(s, { phone, sale: { customer_id: customerId } });
    await ask(t, s.cashier, body);
    expect(await selcom.webhook(body.sale.id)).toBe(200);

    const res = await t.request('GET', `/customers/${customerId}/personal-data`, { token: s.owner.token });
    expect(res.status, res.text).toBe(200);
    const data = Envelope(CustomerPersonalData).parse(res.body).data;
    expect(data.sales).toEqual([expect.objectContaining({ id: body.sale.id, total: 15_700, customer_name: 'Halima Kisanduku' })]);
    expect(data.mobile_money.map(({ id: _, created_at: __, reference: ___, ...m }) => m)).toEqual([
      { kind: 'received', sale_id: body.sale.id, amount: 15_700, phone: e164(phone), status: 'paid' },
      { kind: 'requested', sale_id: body.sale.id, amount: 15_700, phone: e164(phone), status: 'paid' },
    ]);

    const money = () =>
      Promise.all([
        t.db.db.selectFrom('transactions').select(['id', 'total', 'tax', 'status']).where('org_id', '=', s.owner.orgId).execute(),
        t.db.db
          .selectFrom('received_payments')
          .select(['id', 'amount', 'status', 'matched_sale_id'])
          .where('org_id', '=', s.owner.orgId)
          .execute(),
        t.db.db.selectFrom('payment_requests').select(['id', 'amount', 'status', 'sale_id']).where('org_id', '=', s.owner.orgId).execute(),
      ]);
    const before = await money();
    const erased = await t.request('POST', `/customers/${customerId}/erase`, { token: s.owner.token });
    expect(erased.status, erased.text).toBe(200);
    expect(Envelope(CustomerErasure).parse(erased.body).data.kept).toEqual({ sales: 1, credit_tabs: 0, credit_payments: 0 });
    expect(await money()).toEqual(before);
    const everything = JSON.stringify(await databaseSnapshot(t)).toLowerCase();
    for (const trace of ['Kisanduku', e164(phone), e164(phone).slice(1), phone])
      expect(everything, trace).not.toContain(trace.toLowerCase());

    // The markers left behind are nobody's: a second erasure finds nothing.
    const again = await t.request('POST', `/customers/${customerId}/erase`, { token: s.owner.token });
    expect(Envelope(CustomerErasure).parse(again.body).data.already_erased).toBe(true);
  });
});
