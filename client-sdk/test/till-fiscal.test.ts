/**
 * Issue 21 on the till: a sale sold offline has no fiscal receipt until it reaches the server,
 * which numbers it for TRA inside the sale's transaction; the till's pulled copy then carries it,
 * and TRA's acknowledgement reaches the till as a change of the sale. No TRA here: the store's
 * device is registered straight in the database and has nothing to sign with, so the queue fails
 * on every try, and selling must not notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markIssued } from '../../server/src/modules/fiscal/services/receipts.js';
import { CLOSED_TRA, fiscaliseStore } from '../../test/setup/fiscal-device.js';
import { type Harness, openTill, seedShop, serverView, signIn, startServer } from './harness.js';

/** The receipt's TIME as sent to TRA: its instant in EAT (UTC+3), as HHMMSS. */
const eatTime = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().slice(11, 19).replaceAll(':', '');

describe('till: fiscal receipts', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer({ config: { TRA_TEST_URL: CLOSED_TRA } })));
  afterAll(async () => {
    await h.t.deps.fiscal.idle();
    await h.close();
  });

  it('shows no fiscal receipt before sync, TRA numbers in the order sold after it, and TRA acknowledgement on the next sync', async () => {
    const shop = await seedShop(h);
    await fiscaliseStore(h.t, shop.owner);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    // The till knows its store fiscalises (a browser till asks for the buyer's TIN then).
    expect(await till.store()).toMatchObject({ fiscal: true });

    h.net.offline = true;
    const a = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    const b = await till.sell({
      lines: [{ product_id: shop.unga.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QF12',
      customer_tin: '123456789',
    });
    const c = await till.sell({ lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Cash' });
    expect(b).toMatchObject({ customer_tin: '123456789', fiscal: null });
    for (const sale of [a, b, c]) expect((await till.transaction(sale.id))!.fiscal).toBeNull();

    h.net.offline = false;
    const report = await till.syncNow();
    expect(report.numbered.map((n) => n.number)).toEqual([1, 2, 3]);
    // Every try to reach TRA failed (nothing to sign with, no TRA): the sales were recorded all the same.
    await h.t.deps.fiscal.idle();

    const synced = await Promise.all([a, b, c].map(async (s) => (await till.transaction(s.id))!));
    expect(synced.map((s) => s.sync_state)).toEqual(['synced', 'synced', 'synced']);
    expect(synced.map((s) => [s.fiscal?.status, s.fiscal?.gc, s.fiscal?.dc, s.fiscal?.rctvnum, s.fiscal?.acknowledged_at])).toEqual([
      ['pending', 1, 1, '8AD1E31', null],
      ['pending', 2, 2, '8AD1E32', null],
      ['pending', 3, 3, '8AD1E33', null],
    ]);
    for (const { fiscal } of synced) {
      expect(fiscal!.verify_url).toBe(`${h.t.config.TRA_TEST_VERIFY_URL}${fiscal!.rctvnum}_${eatTime(fiscal!.issued_at)}`);
      expect(fiscal!.verify_url).toMatch(/_\d{6}$/);
      expect(fiscal!.qr).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(fiscal!.qr!.split(',')[1]!, 'base64').toString('utf8')).toContain('<svg');
    }
    expect(synced[1]!.customer_tin).toBe('123456789');

    const server = await serverView(h, shop);
    const onServer = new Map((await server.transactions()).items.map((t) => [t.id, t]));
    expect(onServer.get(b.id)).toMatchObject({ customer_tin: '123456789', fiscal: { status: 'pending', rctvnum: '8AD1E32' } });
    expect(onServer.get(a.id)!.customer_tin).toBeNull();
    const stillPending = await h.t.deps.db
      .selectFrom('fiscal_receipts')
      .select(['gc', 'status', 'attempts', 'body'])
      .where('store_id', '=', shop.owner.storeId)
      .orderBy('gc')
      .execute();
    expect(stillPending.map((r) => [Number(r.gc), r.status, r.body])).toEqual([
      [1, 'pending', null],
      [2, 'pending', null],
      [3, 'pending', null],
    ]);

    // TRA acknowledges the second receipt: the till learns it on its next sync.
    h.t.clock.advance(5_000);
    const receipt = await h.t.deps.db
      .selectFrom('fiscal_receipts')
      .selectAll()
      .where('transaction_id', '=', b.id)
      .executeTakeFirstOrThrow();
    await markIssued(h.t.serviceCtx(), [{ receipt, attempts: 1 }]);
    const acknowledgedAt = new Date(h.t.clock.now()).toISOString();
    await till.syncNow();
    expect((await till.transaction(b.id))!.fiscal).toMatchObject({
      status: 'issued',
      rctvnum: '8AD1E32',
      gc: 2,
      acknowledged_at: acknowledgedAt,
    });
    expect((await till.transaction(a.id))!.fiscal).toMatchObject({ status: 'pending', acknowledged_at: null });
    const listed = await till.recentTransactions();
    expect(listed.find((s) => s.id === b.id)!.fiscal!.status).toBe('issued');
    await till.close();
  });
});
