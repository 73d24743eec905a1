/**
 * TRA unreachable for an hour, and the day's Z report: selling goes on, receipts queue in order,
 * the store is told once the queue has waited an hour, and when TRA answers again every receipt
 * is sent once, in order. The Z report of a finished day adds up to the day's sales, its refunds
 * and voids reported, and the daily counter starts again after midnight EAT.
 */
import type { Transaction } from '@duka/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runFiscalJobs } from '../../server/src/modules/fiscal/services/jobs.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { DAY_START, fiscalise, fiscalSuite, settingsBody } from '../setup/fiscal.js';
import type { TestApp } from '../setup/test-app.js';

const MIN = 60_000;

describe('fiscal receipts while TRA is away, and Z reports', () => {
  const suite = fiscalSuite(4, { ACCESS_TOKEN_TTL: 86_400 });
  const { w, product, sell } = suite;
  let t: TestApp;
  beforeAll(() => void (t = suite.t));
  const statuses = async (s: Session, ids: string[]) =>
    Promise.all(
      ids.map(
        async (id) => ((await t.request('GET', `/pos/transactions/${id}`, { token: s.token })).body.data as Transaction).fiscal!.status,
      ),
    );
  const fiscalNotices = async (s: Session) =>
    (
      (await t.request('GET', '/notifications', { token: s.token })).body.data.notifications as Array<{ title: string; body: string }>
    ).filter((n) => n.title.includes('TRA'));

  it('keeps selling while TRA is down for an hour, tells the store once, then sends everything in order exactly once', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 0);
    const dev = w.tra.device(w.certs[0]!.serial);
    const milk = await product(owner, { name: 'Maziwa 500ml', selling_price: 1300 });

    w.tra.down = 'refuse';
    const sales: Transaction[] = [];
    for (let i = 0; i < 10; i++) {
      sales.push(await sell(owner, { lines: [{ product_id: milk.id, qty: 1 + i }], payment_method: 'Cash' }));
      // The sale's own try at TRA reads the clock: it must finish before time moves on.
      await t.deps.fiscal.idle();
      t.clock.advance(2 * MIN);
    }
    await runFiscalJobs(t.deps);
    expect(
      new Set(
        await statuses(
          owner,
          sales.map((s) => s.id),
        ),
      ),
    ).toEqual(new Set(['pending']));
    expect(dev.receipts).toHaveLength(0);
    expect(await fiscalNotices(owner)).toHaveLength(0);

    // Forty minutes after the first sale's receipt: not an hour yet.
    t.clock.advance(20 * MIN);
    await runFiscalJobs(t.deps);
    expect(await fiscalNotices(owner)).toHaveLength(0);
    t.clock.advance(25 * MIN);
    await runFiscalJobs(t.deps);
    await runFiscalJobs(t.deps);
    const notices = await fiscalNotices(owner);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain('10 receipt(s) have waited more than an hour for TRA. Last reason: TRA could not be reached.');
    const queue = (await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue;
    expect(queue).toMatchObject({
      pending: 10,
      failed: 0,
      oldest_pending_at: new Date(DAY_START).toISOString(),
      last_error: 'TRA could not be reached',
    });
    // Only the head of the queue was tried (again and again, backing off): the others wait their turn.
    const attempts = (
      await t.db.db.selectFrom('fiscal_receipts').select('attempts').where('store_id', '=', owner.storeId).orderBy('gc').execute()
    ).map((r) => r.attempts);
    expect(attempts[0]).toBeGreaterThanOrEqual(5);
    expect(attempts.slice(1)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);

    w.tra.down = false;
    t.clock.advance(5 * MIN);
    await runFiscalJobs(t.deps);
    expect(
      new Set(
        await statuses(
          owner,
          sales.map((s) => s.id),
        ),
      ),
    ).toEqual(new Set(['issued']));
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(dev.receipts.map((r) => r.time)).toEqual(sales.map((_, i) => `10:${String(2 * i).padStart(2, '0')}:00`));
    expect(dev.receipts.map((r) => r.totalInclCents)).toEqual(sales.map((_, i) => 130_000 * (1 + i)));
    expect(dev).toMatchObject({ attempts: 10, resends: 0 });
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue).toMatchObject({
      pending: 0,
      last_error: null,
    });
  });

  it('reports each finished day in a Z report equal to its sales, refunds and voids; the daily counter restarts after midnight EAT', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 1);
    const dev = w.tra.device(w.certs[1]!.serial);
    const day = new Date(t.clock.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const rice = await product(owner, { name: 'Mchele 1kg', selling_price: 3000 });
    const oil = await product(owner, { name: 'Mafuta 1l', selling_price: 5500 });
    const customer = (await t.request('POST', '/customers', { token: owner.token, body: { name: 'Mzee Juma', phone: '0754000222' } })).body
      .data;

    const s1 = await sell(owner, { lines: [{ product_id: rice.id, qty: 2 }], payment_method: 'Cash' });
    const s2 = await sell(owner, { lines: [{ product_id: oil.id, qty: 1 }], payment_method: 'M-Pesa' });
    const s3 = await sell(owner, {
      lines: [
        { product_id: rice.id, qty: 1 },
        { product_id: oil.id, qty: 1 },
      ],
      payment_method: 'Credit',
      customer_id: customer.id,
    });
    const s4 = await sell(owner, { lines: [{ product_id: oil.id, qty: 2 }], payment_method: 'Bank', discount_pct: 10 });
    expect((await t.request('POST', `/pos/transactions/${s2.id}/refund`, { token: owner.token, body: { reason: 'spilt' } })).status).toBe(
      200,
    );
    expect(
      (await t.request('POST', `/pos/transactions/${s1.id}/void`, { token: owner.token, body: { reason: 'rung twice' } })).status,
    ).toBe(200);
    // Late that evening, still the same day in Dar es Salaam (23:30 EAT).
    t.clock.advance(13.5 * 3_600_000 - (t.clock.now() - DAY_START));
    const s5 = await sell(owner, { lines: [{ product_id: rice.id, qty: 5 }], payment_method: 'Cash' });
    // 00:30 EAT: a new day.
    t.clock.advance(60 * MIN);
    const s6 = await sell(owner, { lines: [{ product_id: oil.id, qty: 1 }], payment_method: 'Cash' });
    expect(s5.fiscal).toMatchObject({ gc: 5, dc: 5 });
    expect(s6.fiscal).toMatchObject({ gc: 6, dc: 1 });
    await runFiscalJobs(t.deps);

    const day1 = [s1, s2, s3, s4, s5];
    const total = (list: Transaction[]) => list.reduce((sum, s) => sum + Math.round(s.total * 100), 0) / 100;
    const zs = (await t.request('GET', `/stores/${owner.storeId}/fiscal/z-reports`, { token: owner.token })).body.data;
    expect(zs).toHaveLength(1);
    expect(zs[0]).toMatchObject({
      date: day,
      znumber: day.replaceAll('-', ''),
      status: 'issued',
      receipts: 5,
      daily_total: total(day1),
      gross: total(day1),
      discounts: s4.discount,
      corrections: s2.total,
      voids: 1,
      voids_total: s1.total,
      payments: { CASH: s1.total + s5.total, CHEQUE: 0, CCARD: s4.total, EMONEY: s2.total, INVOICE: s3.total },
    });
    // The day's sales as the shop's own report counts them: refunds and voids left out.
    const summary = (await t.request('GET', `/pos/summary?date_from=${day}&date_to=${day}`, { token: owner.token })).body.data;
    expect(summary.total_sales).toBe(total([s3, s4, s5]));
    expect(summary.total_sales + zs[0].corrections + zs[0].voids_total).toBe(zs[0].daily_total);
    expect(dev.zReports.map((z) => [z.znumber, z.dailyTotalCents, z.ticketsFiscal, z.grossCents])).toEqual([
      [day.replaceAll('-', ''), Math.round(total(day1) * 100), 5, Math.round(total(day1) * 100)],
    ]);

    // The next day ends quiet but for s6: its Z report carries the running total on.
    t.clock.advance(24 * 3_600_000);
    owner.token = (await t.request('POST', '/auth/refresh', { body: { refresh_token: owner.refresh } })).body.data.access_token;
    await runFiscalJobs(t.deps);
    const next = (await t.request('GET', `/stores/${owner.storeId}/fiscal/z-reports`, { token: owner.token })).body.data;
    expect(next.map((z: { receipts: number; daily_total: number; gross: number }) => [z.receipts, z.daily_total, z.gross])).toEqual([
      [1, s6.total, total([...day1, s6])],
      [5, total(day1), total(day1)],
    ]);
    expect(dev.zReports).toHaveLength(2);
  });
  it('names a certificate that no longer opens as the reason, keeps selling, and sends once the owner saves it again', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 2);
    const dev = w.tra.device(w.certs[2]!.serial);
    const soap = await product(owner, { name: 'Sabuni', selling_price: 1500 });
    const queueOf = async () => (await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue;
    const setSealed = (certificate_enc: string) =>
      t.db.db.updateTable('fiscal_devices').set({ certificate_enc }).where('store_id', '=', owner.storeId).execute();

    // A replaced certificate that is not a .pfx at all.
    await setSealed(t.deps.keys.encrypt('bm90IGEgcGZ4'));
    const first = await sell(owner, { lines: [{ product_id: soap.id, qty: 2 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect(first.fiscal).toMatchObject({ status: 'pending', gc: 1 });
    expect(await queueOf()).toMatchObject({ pending: 1, last_error: 'certificate: it is not a PKCS#12 (.pfx) file' });

    // The server key changed under the sealed copy: it cannot be unsealed at all.
    const sealed = t.deps.keys.encrypt('x').split('.');
    await setSealed([...sealed.slice(0, 3), 'AAAA'].join('.'));
    const second = await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect(second.fiscal).toMatchObject({ status: 'pending', gc: 2 });
    const unsealed =
      'certificate: the server cannot unseal the stored certificate (JWT_SECRET changed?): restore the previous JWT_SECRET, or save the certificate again';
    expect(await queueOf()).toMatchObject({ pending: 2, last_error: unsealed });

    t.clock.advance(61 * MIN);
    await runFiscalJobs(t.deps);
    const notices = await fiscalNotices(owner);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain(`2 receipt(s) have waited more than an hour for TRA. Last reason: ${unsealed}.`);
    expect(dev.receipts).toHaveLength(0);

    const saved = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, {
      token: owner.token,
      body: settingsBody(w, 2, { enabled: true }),
    });
    expect(saved.status, saved.text).toBe(200);
    await runFiscalJobs(t.deps);
    expect(await statuses(owner, [first.id, second.id])).toEqual(['issued', 'issued']);
    expect(dev.receipts.map((r) => [r.gc, r.totalInclCents])).toEqual([
      [1, 300_000],
      [2, 150_000],
    ]);
    expect(await queueOf()).toMatchObject({ pending: 0, last_error: null });

    // The TRA credentials kept from the registration no longer unseal (nor the cached token).
    const kept = await t.db.db
      .selectFrom('fiscal_devices')
      .select(['credentials_enc', 'token_enc'])
      .where('store_id', '=', owner.storeId)
      .executeTakeFirstOrThrow();
    const spoil = (v: string) => [...v.split('.').slice(0, 3), 'AAAA'].join('.');
    await t.db.db
      .updateTable('fiscal_devices')
      .set({ credentials_enc: spoil(kept.credentials_enc!), token_enc: spoil(kept.token_enc!) })
      .where('store_id', '=', owner.storeId)
      .execute();
    const third = await sell(owner, { lines: [{ product_id: soap.id, qty: 4 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect(await queueOf()).toMatchObject({
      pending: 1,
      last_error:
        'the TRA username and password kept from the registration cannot be unsealed (JWT_SECRET changed?): restore the previous JWT_SECRET',
    });
    await t.db.db
      .updateTable('fiscal_devices')
      .set({ credentials_enc: kept.credentials_enc })
      .where('store_id', '=', owner.storeId)
      .execute();
    t.clock.advance(31_000);
    await runFiscalJobs(t.deps);
    expect(await statuses(owner, [third.id])).toEqual(['issued']);
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2, 3]);

    // Nothing to send: the 30 s job leaves the device alone until its day has ended.
    const kicks = vi.spyOn(t.deps.fiscal, 'kick');
    const kicked = () => kicks.mock.calls.filter(([, storeId]) => storeId === owner.storeId).length;
    await runFiscalJobs(t.deps);
    expect(kicked()).toBe(0);
    t.clock.advance(24 * 60 * MIN);
    await runFiscalJobs(t.deps);
    expect(kicked()).toBe(1);
    // A day later the morning's access token has expired: the owner signs in again.
    const login = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
    expect(login.status, login.text).toBe(200);
    owner.token = login.body.data.tokens?.access_token ?? login.body.data.access_token;
    const zOf = async () => (await t.request('GET', `/stores/${owner.storeId}/fiscal/z-reports`, { token: owner.token })).body.data;
    const reported = await zOf();
    expect(reported.map((z: { status: string }) => z.status)).toEqual(reported.map(() => 'issued'));
    expect(reported[0].daily_total).toBe(10_500);
    await runFiscalJobs(t.deps);
    expect(kicked()).toBe(1);
    // Switched off, a device reports no day after its last receipt's.
    const { certificate: _c, certificate_password: _p, ...rest } = settingsBody(w, 2);
    expect(
      (await t.request('PUT', `/stores/${owner.storeId}/fiscal`, { token: owner.token, body: { ...rest, enabled: false } })).status,
    ).toBe(200);
    t.clock.advance(24 * 60 * MIN);
    await runFiscalJobs(t.deps);
    expect(kicked()).toBe(1);
    expect(await t.db.db.selectFrom('fiscal_z_reports').select('znum').where('store_id', '=', owner.storeId).execute()).toHaveLength(
      reported.length,
    );
    kicks.mockRestore();
  });
  it("sends the day's Z report before the next day's first receipt when that sale crosses midnight EAT, without the timer", async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 3);
    const dev = w.tra.device(w.certs[3]!.serial);
    const tea = await product(owner, { name: 'Chai', selling_price: 800 });
    // 23:59:50 in Dar es Salaam, then 00:00:02: the timer's Z (five minutes after midnight) is still far off.
    const eat = t.clock.now() + 3 * 3_600_000;
    t.clock.advance(86_400_000 - (eat % 86_400_000) - 10_000);
    const late = await sell(owner, { lines: [{ product_id: tea.id, qty: 2 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    t.clock.advance(12_000);
    const early = await sell(owner, { lines: [{ product_id: tea.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    const day = new Date(eat).toISOString().slice(0, 10).replaceAll('-', '');
    const next = new Date(eat + 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect([late.fiscal, early.fiscal]).toMatchObject([
      { gc: 1, dc: 1 },
      { gc: 2, dc: 1 },
    ]);
    expect(dev.acknowledged).toEqual([`RCT ${day} 1`, `Z ${day}`, `RCT ${next} 2`]);
    expect(dev.zReports.map((z) => [z.znumber, z.dailyTotalCents, z.ticketsFiscal])).toEqual([[day, 160_000, 1]]);
    const zs = (await t.request('GET', `/stores/${owner.storeId}/fiscal/z-reports`, { token: owner.token })).body.data;
    expect(zs.map((z: { znumber: string; status: string }) => [z.znumber, z.status])).toEqual([[day, 'issued']]);
    expect((await t.request('GET', `/pos/transactions/${early.id}`, { token: owner.token })).body.data.fiscal.status).toBe('issued');
  });
});
