import { Envelope, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: devices and push', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  let n = 0;
  const uuid = () => `0194f2c0-${String(++n).padStart(4, '0')}-7000-8000-${String(Date.now() % 1e12).padStart(12, '0')}`;
  const product = async (s: { token: string }, body: Record<string, unknown>) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body: { stock: 20, ...body } })).body.data as { id: string };
  const register = async (s: { token: string }, name = 'Till 1') => {
    const res = await t.request('POST', '/sync/devices', { token: s.token, body: { device_id: uuid(), name } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { device_id: string; till_code: string };
  };
  const sale = (
    seq: number,
    lines: Array<{ product_id: string; qty: number; unit_price: number }>,
    extra: Record<string, unknown> = {},
    at = new Date(t.clock.now() - 60_000),
  ) => ({
    id: uuid(),
    seq,
    type: 'sale.create',
    created_at: at.toISOString(),
    payload: { id: uuid(), client_receipt_number: `MAD-T1-${seq}`, lines, payment_method: 'Cash', ...extra },
  });
  const push = async (s: { token: string }, device_id: string, mutations: unknown[]) =>
    t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
  const stockOf = async (s: { token: string }, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;
  const count = async (s: Session) => (await t.request('GET', '/pos/transactions', { token: s.token })).body.meta.total as number;

  it('books an offline sale to the user whose session pushed it; another member named as cashier is a cashier_mismatch conflict, a stranger is refused', async () => {
    const owner = await registerOwner(t);
    const stranger = await registerOwner(t);
    const cashier = await createStaff(t, owner);
    const soda = await product(owner, { name: 'Soda', selling_price: 1000 });
    const { device_id } = await register(cashier);
    const line = [{ product_id: soda.id, qty: 1, unit_price: 1000 }];
    const res = Envelope(PushResponse).parse(
      (
        await push(cashier, device_id, [
          sale(1, line, { cashier_id: owner.userId }),
          sale(2, line, { cashier_id: stranger.userId }),
          sale(3, line),
          sale(4, line, { cashier_id: cashier.user.id }),
        ])
      ).body,
    ).data;
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied', 'applied']);
    expect(res.results[1]!.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'payload.cashier_id is not a member of this organisation',
    });
    const message = 'the till named Asha Mushi as the cashier, but Juma Ali sent the sale; it is booked to Juma Ali';
    expect(res.results[0]!.conflicts).toEqual([{ kind: 'cashier_mismatch', message }]);
    expect(res.results[2]!.conflicts).toBeUndefined();
    expect(res.results[3]!.conflicts).toBeUndefined();
    const cashierOf = async (i: number) =>
      (await t.request('GET', `/pos/transactions/${res.results[i]!.result!.transaction_id}`, { token: owner.token })).body.data.cashier_id;
    expect([await cashierOf(0), await cashierOf(2), await cashierOf(3)]).toEqual([cashier.user.id, cashier.user.id, cashier.user.id]);
    const conflicts = (await t.request('GET', '/sync/conflicts', { token: owner.token })).body.data;
    expect(conflicts).toEqual([
      expect.objectContaining({
        kind: 'cashier_mismatch',
        message,
        transaction_id: res.results[0]!.result!.transaction_id,
        detail: { named_cashier_id: owner.userId, booked_cashier_id: cashier.user.id },
      }),
    ]);
    expect(await stockOf(owner, soda.id)).toBe(17);
  });

  it('registers a till once and numbers tills per store', async () => {
    const owner = await registerOwner(t);
    const first = await register(owner, 'Counter');
    expect(first.till_code).toBe('T1');
    const again = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: first.device_id, name: 'Counter' } });
    expect(again.body.data).toMatchObject({ device_id: first.device_id, till_code: 'T1', last_applied_seq: 0 });
    expect((await register(owner, 'Back')).till_code).toBe('T2');
  });

  it('applies offline sales once however often the batch is pushed', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, { name: 'Soda', selling_price: 1000 });
    const { device_id } = await register(owner);
    const batch = [
      sale(1, [{ product_id: soda.id, qty: 2, unit_price: 1000 }]),
      sale(2, [{ product_id: soda.id, qty: 3, unit_price: 1000 }]),
    ];
    const first = Envelope(PushResponse).parse((await push(owner, device_id, batch)).body).data;
    expect(first.last_applied_seq).toBe(2);
    expect(first.results.map((r) => [r.seq, r.status])).toEqual([
      [1, 'applied'],
      [2, 'applied'],
    ]);
    expect(first.results[0]!.result).toMatchObject({ number: 1, status: 'paid', total: 2000 });
    // The reply was lost (a crash after commit): the till sends the same batch again, twice.
    for (let i = 0; i < 2; i++) {
      const again = Envelope(PushResponse).parse((await push(owner, device_id, batch)).body).data;
      expect(again.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
      expect(again.results.map((r) => r.result?.transaction_id)).toEqual(first.results.map((r) => r.result?.transaction_id));
    }
    expect(await count(owner)).toBe(2);
    expect(await stockOf(owner, soda.id)).toBe(15);
    const tx = (await t.request('GET', `/pos/transactions/${first.results[1]!.result!.transaction_id}`, { token: owner.token })).body.data;
    expect(tx).toMatchObject({ source: 'offline', client_receipt_number: 'MAD-T1-2', total: 3000 });
  });

  it('applies a refund queued after its sale in the same push', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Unga', selling_price: 2500 });
    const { device_id } = await register(owner);
    const s1 = sale(1, [{ product_id: p.id, qty: 4, unit_price: 2500 }]);
    const refund = {
      id: uuid(),
      seq: 2,
      type: 'sale.refund',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: { transaction_id: (s1.payload as { id: string }).id, reason: 'wrong flour' },
    };
    const res = Envelope(PushResponse).parse((await push(owner, device_id, [s1, refund])).body).data;
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(res.results[1]!.result).toMatchObject({ status: 'refunded' });
    expect(await stockOf(owner, p.id)).toBe(20);
  });

  it('rejects a mutation with its error code and still applies the ones after it', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Chai', selling_price: 300 });
    const { device_id } = await register(owner);
    const badRefund = {
      id: uuid(),
      seq: 1,
      type: 'sale.refund',
      created_at: new Date().toISOString(),
      payload: { transaction_id: uuid(), reason: 'x' },
    };
    const badShape = {
      id: uuid(),
      seq: 2,
      type: 'stock.adjust',
      created_at: new Date().toISOString(),
      payload: { product_id: p.id, qty_change: 0, reason: 'x' },
    };
    const good = sale(3, [{ product_id: p.id, qty: 1, unit_price: 300 }]);
    const res = Envelope(PushResponse).parse((await push(owner, device_id, [badRefund, badShape, good])).body).data;
    expect(res.results.map((r) => [r.status, r.error?.code])).toEqual([
      ['rejected', 'NOT_FOUND'],
      ['rejected', 'VALIDATION_ERROR'],
      ['applied', undefined],
    ]);
    expect(res.last_applied_seq).toBe(3);
    const replay = Envelope(PushResponse).parse((await push(owner, device_id, [badRefund])).body).data;
    expect(replay.results[0]).toMatchObject({ status: 'duplicate', error: { code: 'NOT_FOUND' } });
    const reused = Envelope(PushResponse).parse((await push(owner, device_id, [{ ...good, id: uuid() }])).body).data;
    expect(reused.results[0]).toMatchObject({ status: 'rejected', error: { code: 'CONFLICT' } });
    expect(await stockOf(owner, p.id)).toBe(19);
  });

  it('books every rule an offline sale broke and records it as a conflict with a notification', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const cheap = await product(owner, { name: 'Sukari', selling_price: 3000 });
    const scarce = await product(owner, { name: 'Mafuta', selling_price: 5000, stock: 1 });
    const retired = await product(owner, { name: 'Old soap', selling_price: 800 });
    t.clock.advance(120_000);
    const soldAt = t.clock.now() - 60_000;
    await t.request('PATCH', `/inventory/products/${cheap.id}`, { token: owner.token, body: { selling_price: 3200 } });
    await t.request('PATCH', `/inventory/products/${retired.id}`, { token: owner.token, body: { is_active: false } });
    const customer = (
      await t.request('POST', '/customers', { token: owner.token, body: { name: 'Mzee Hamisi', phone: uniquePhone(), credit_limit: 1000 } })
    ).body.data;
    const { device_id } = await register(staff);
    const at = new Date(soldAt);
    const res = Envelope(PushResponse).parse(
      (
        await push(staff, device_id, [
          sale(1, [{ product_id: cheap.id, qty: 1, unit_price: 3000 }], {}, at),
          sale(2, [{ product_id: cheap.id, qty: 1, unit_price: 1234 }], {}, new Date(t.clock.now())),
          sale(3, [{ product_id: scarce.id, qty: 3, unit_price: 5000 }]),
          sale(4, [{ product_id: retired.id, qty: 1, unit_price: 800 }]),
          sale(
            5,
            [{ product_id: cheap.id, qty: 1, unit_price: 3200 }],
            { payment_method: 'Credit', customer_id: customer.id },
            new Date(t.clock.now()),
          ),
          sale(6, [{ product_id: cheap.id, qty: 1, unit_price: 3200 }], { discount_pct: 10 }, new Date(t.clock.now())),
        ])
      ).body,
    ).data;
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied', 'applied']);
    expect(res.results.map((r) => (r.conflicts ?? []).map((c) => c.kind))).toEqual([
      [],
      ['price_mismatch'],
      ['oversold'],
      ['inactive_product'],
      ['credit_limit'],
      ['permission'],
    ]);
    expect(res.results.map((r) => r.result?.total)).toEqual([3000, 3200, 15000, 800, 3200, 2880]);
    expect(await stockOf(owner, scarce.id)).toBe(-2);

    const stale = sale(7, [{ product_id: cheap.id, qty: 1, unit_price: 3000 }], {}, new Date(t.clock.now()));
    const staleRes = Envelope(PushResponse).parse((await push(staff, device_id, [stale])).body).data;
    expect(staleRes.results[0]).toMatchObject({ status: 'applied', result: { total: 3000 }, conflicts: [{ kind: 'stale_price' }] });

    const listed = (await t.request('GET', '/sync/conflicts?page_size=50', { token: owner.token })).body;
    expect(listed.meta.total).toBe(6);
    expect(new Set(listed.data.map((c: { kind: string }) => c.kind))).toEqual(
      new Set(['price_mismatch', 'oversold', 'inactive_product', 'credit_limit', 'permission', 'stale_price']),
    );
    const oversold = (await t.request('GET', '/sync/conflicts?kind=oversold', { token: owner.token })).body.data[0];
    expect(oversold).toMatchObject({ device_id, resolved: false, detail: { stock_before: 1, qty: 3, stock_after: -2 } });
    const notes = (await t.request('GET', '/notifications?category=stock', { token: owner.token })).body.data.notifications;
    expect(notes.some((x: { body: string }) => x.body.includes('Mafuta sold 3 with 1 in stock'))).toBe(true);
    const resolved = await t.request('PATCH', `/sync/conflicts/${oversold.id}`, {
      token: owner.token,
      body: { note: 'recounted: 3 were on the shelf' },
    });
    expect(resolved.body.data).toMatchObject({ resolved: true, resolution_note: 'recounted: 3 were on the shelf' });
    expect((await t.request('GET', '/sync/conflicts?resolved=false', { token: owner.token })).body.meta.total).toBe(5);
  });

  it('answers 409 with the expected seq for a gap, 400 for a broken batch and 413 beyond 500', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Maji', selling_price: 500 });
    const { device_id } = await register(owner);
    const gap = await push(owner, device_id, [sale(3, [{ product_id: p.id, qty: 1, unit_price: 500 }])]);
    expect(gap.status).toBe(409);
    expect(gap.body.meta.expected_seq).toBe(1);
    const holes = await push(owner, device_id, [
      sale(1, [{ product_id: p.id, qty: 1, unit_price: 500 }]),
      sale(3, [{ product_id: p.id, qty: 1, unit_price: 500 }]),
    ]);
    expect(holes.status).toBe(400);
    expect(holes.body.errors[0].field).toBe('mutations.1.seq');
    const many = Array.from({ length: 501 }, (_, i) => sale(i + 1, [{ product_id: p.id, qty: 1, unit_price: 500 }]));
    expect((await push(owner, device_id, many)).status).toBe(413);
    expect(await stockOf(owner, p.id)).toBe(20);
  });

  it('reveals nothing of another organisation’s device or mutations', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const p = await product(owner, { name: 'Pipi', selling_price: 100 });
    const { device_id } = await register(owner);
    const m = sale(1, [{ product_id: p.id, qty: 1, unit_price: 100 }]);
    await push(owner, device_id, [m]);
    expect((await push(other, device_id, [m])).status).toBe(404);
    const theirs = await register(other);
    const reuse = await push(other, theirs.device_id, [{ ...m, seq: 1 }]);
    // A mutation id is its organisation's (issue 36): the other shop's use of it is not looked at, and
    // the sale is refused alone (issue 18) for what it asks, another shop's product, as unknown.
    expect(reuse.status).toBe(200);
    expect(reuse.body.data.results).toEqual([
      { id: m.id, seq: 1, status: 'rejected', error: { code: 'NOT_FOUND', message: 'product not found' } },
    ]);
    expect(await stockOf(owner, p.id)).toBe(19);
  });
});
