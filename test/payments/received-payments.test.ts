/**
 * Callbacks into a shop's collection account over real HTTP from the local fakes: stored once per
 * provider reference, forged or mis-addressed ones refused and not stored, and the received list
 * and its CSV exact.
 */
import { CollectionAccount, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { postCallback } from '../fakes/http-fake.js';
import { SelcomFake } from '../fakes/selcom-fake.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const AZAM = { appName: 'duka-shop', clientId: 'azam-client-7731', clientSecret: 'azam-secret-9f2e', apiKey: 'azam-apikey-44aa' };
const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-secret-5e1d', vendor: 'TILL61000042' };

describe('payments received into a collection account', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(AZAM);
  const selcom = new SelcomFake(SELCOM);
  beforeAll(async () => {
    t = await createTestApp();
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await t.close();
  });

  const served = (url: string) => url.replace(/^https?:\/\/[^/]+/, http.origin);
  const create = async (s: Session, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/payments/collection-accounts', { token: s.token, body });
    expect(res.status, res.text).toBe(201);
    return Envelope(CollectionAccount).parse(res.body).data;
  };
  const stored = (orgId: string) =>
    t.db.db
      .selectFrom('received_payments')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('received_at')
      .orderBy('provider_ref')
      .execute();
  const push = (transactionId: string, amount = '2500') => ({
    accountNumber: '255712345678',
    amount,
    externalId: `ref-${transactionId}`,
    provider: 'Mpesa',
    transactionId,
  });

  it('stores an AzamPay and a signed Selcom callback once each; forged, mis-tokened and bad-amount ones are refused and not stored', async () => {
    const owner = await registerOwner(t);
    const azam = await create(owner, { provider: 'azampay', label: 'Azam', credentials: AZAM });
    const sel = await create(owner, { provider: 'selcom', label: 'Selcom', store_id: owner.storeId, credentials: SELCOM });

    expect(await azampay.pay(push('AZ1'), served(azam.callback_url))).toBe(200);
    t.clock.advance(60_000);
    expect(await azampay.pay(push('AZ1'), served(azam.callback_url))).toBe(200);
    expect(
      await selcom.customerPaid(served(sel.callback_url), {
        transid: 'SEL77',
        amount: '12000',
        phone: '255687654321',
        channel: 'AIRTELMONEY',
      }),
    ).toBe(200);
    expect(await selcom.customerPaid(served(sel.callback_url), { transid: 'SEL77', amount: '12000', phone: '255687654321' })).toBe(200);

    // Signed with another secret: 401. Another account's URL with a valid token of this one: 404.
    expect(
      await selcom.customerPaid(served(sel.callback_url), { transid: 'SEL78', amount: '500', phone: '255687654321' }, { forge: true }),
    ).toBe(401);
    const token = new URL(azam.callback_url).searchParams.get('token')!;
    expect(await azampay.pay(push('AZ2'), `${http.origin}/api/v1/payments/callbacks/${sel.id}?token=${token}`)).toBe(404);
    expect(await azampay.pay(push('AZ3'), served(azam.callback_url).replace(/token=.*/, `token=${'x'.repeat(43)}`))).toBe(404);
    // Another organisation's account with this organisation's token: 404.
    const other = await registerOwner(t);
    const theirs = await create(other, { provider: 'azampay', label: 'Theirs', credentials: AZAM });
    expect(await azampay.pay(push('AZ4'), `${http.origin}/api/v1/payments/callbacks/${theirs.id}?token=${token}`)).toBe(404);
    // Amounts that are not whole positive shillings, and a body that is not AzamPay's.
    expect(await azampay.pay(push('AZ5', '12.5'), served(azam.callback_url))).toBe(400);
    expect(await azampay.pay(push('AZ6', '0'), served(azam.callback_url))).toBe(400);
    // The URL's token was right, so the driver's refusal names the body.
    expect(await postCallback(served(azam.callback_url), '{"hello":"world"}', 'application/json')).toBe(401);

    const rows = await stored(owner.orgId);
    expect(
      rows.map((r) => [
        r.provider,
        r.provider_ref,
        r.reference,
        Number(r.amount),
        r.payer_phone,
        r.network,
        r.status,
        r.account_id,
        r.store_id,
      ]),
    ).toEqual([
      ['azampay', 'AZ1', 'ref-AZ1', 250_000, '+255712345678', 'Mpesa', 'paid', azam.id, null],
      ['selcom', 'RSEL77', 'SEL77', 1_200_000, '+255687654321', 'AIRTELMONEY', 'paid', sel.id, owner.storeId],
    ]);
    expect(JSON.parse(rows[0]!.raw).transactionstatus).toBe('success');
    expect(await stored(other.orgId)).toEqual([]);
  });

  it("lists the active store's received payments with filters, for those holding the reports permission, and exports them as CSV", async () => {
    const owner = await registerOwner(t);
    const azam = await create(owner, { provider: 'azampay', label: 'Azam', credentials: AZAM });
    t.clock.advance(Date.parse('2026-11-20T07:00:00Z') - t.clock.now());
    expect(await azampay.pay(push('AZ10', '1500'), served(azam.callback_url))).toBe(200);
    t.clock.advance(Date.parse('2026-11-21T09:30:00Z') - t.clock.now());
    expect(await azampay.pay(push('AZ11', '3000'), served(azam.callback_url))).toBe(200);
    expect(await azampay.pay(push('AZ12', '700'), served(azam.callback_url), 'failure')).toBe(200);

    const list = async (q = '', token = owner.token) => t.request('GET', `/payments/received${q}`, { token });
    const all = await list();
    expect(all.status, all.text).toBe(200);
    expect(
      all.body.data.map((p: { provider_ref: string; amount: number; status: string }) => [p.provider_ref, p.amount, p.status]),
    ).toEqual([
      ['AZ12', 700, 'failed'],
      ['AZ11', 3000, 'paid'],
      ['AZ10', 1500, 'paid'],
    ]);
    expect(all.body.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });
    const day = await list('?date_from=2026-11-21&date_to=2026-11-21&page_size=1');
    expect(day.body.data.map((p: { provider_ref: string }) => p.provider_ref)).toEqual(['AZ12']);
    expect(day.body.meta.total).toBe(2);
    expect((await list('?matched=true')).body.data).toEqual([]);
    expect((await list(`?matched=false&account_id=${azam.id}`)).body.meta.total).toBe(3);
    const bad = await list('?date_from=2026-11-22&date_to=2026-11-21');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('date_to');

    const manager = await createStaff(t, owner, { role: 'manager' });
    const cashier = await createStaff(t, owner);
    expect((await list('', manager.token)).body.meta.total).toBe(3);
    expect((await list('', cashier.token)).status).toBe(403);
    const other = await registerOwner(t);
    expect((await list('', other.token)).body.meta.total).toBe(0);

    const csv = await t.request('GET', '/payments/received.csv?date_from=2026-11-20&date_to=2026-11-21', { token: owner.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="received-payments_2026-11-20_to_2026-11-21.csv"');
    expect(csv.text).toBe(
      [
        'date,time,provider,account_id,provider_ref,reference,wallet_ref,amount,payer_phone,network,status,matched_sale_id',
        `2026-11-20,10:00:00,azampay,${azam.id},AZ10,ref-AZ10,FSPAZ10,1500.00,+255712345678,Mpesa,paid,`,
        `2026-11-21,12:30:00,azampay,${azam.id},AZ11,ref-AZ11,FSPAZ11,3000.00,+255712345678,Mpesa,paid,`,
        `2026-11-21,12:30:00,azampay,${azam.id},AZ12,ref-AZ12,FSPAZ12,700.00,+255712345678,Mpesa,failed,`,
        '',
      ].join('\r\n'),
    );
    expect((await t.request('GET', '/payments/received.csv', { token: cashier.token })).status).toBe(403);
  });
});
