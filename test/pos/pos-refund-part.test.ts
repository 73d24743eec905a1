/**
 * Issue 51: a part of a sale refunded, over real HTTP. 1.25 kg of sugar at 3,250/kg (4,063) less
 * 0.25 kg gives back 813 (the line × 0.25 / 1.25, half up to the shilling), stock up by exactly
 * 250 g, the sale still paid; the remaining 1 kg gives back exactly the rest (3,250) and the sale is
 * refunded. More than is left is 409 naming the line, half a soap bar 400; a split sale's part
 * comes out of the cash part first and the shift's expected cash moves by exactly that; a credit
 * part's unpaid balance is cleared first; the same request twice with an Idempotency-Key refunds
 * once; a till pushes a partial refund and an old till's refund takes the rest.
 */
import { Envelope, newId, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /pos/transactions/:id/refund with lines: part of a sale refunded', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (token: string, method: 'GET' | 'POST', path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const product = async (owner: Session, body: Record<string, unknown>) =>
    (await call(owner.token, 'POST', '/inventory/products', body)).data;
  const sale = async (owner: Session, body: Record<string, unknown>) =>
    Envelope(Transaction).parse(await call(owner.token, 'POST', '/pos/sale', body, 201)).data;
  const refund = async (owner: Session, id: string, body: Record<string, unknown>): Promise<Transaction> =>
    Envelope(Transaction).parse(await call(owner.token, 'POST', `/pos/transactions/${id}/refund`, { reason: 'returned', ...body })).data;
  /** A refused refund's answer body. */
  const refused = (owner: Session, id: string, body: Record<string, unknown>, status: number) =>
    call(owner.token, 'POST', `/pos/transactions/${id}/refund`, { reason: 'returned', ...body }, status);
  /** Stored counts: grams of a kg product. */
  const counted = async (owner: Session, id: string) =>
    Number(
      (
        await t.db.db
          .selectFrom('product_stock')
          .select('qty')
          .where('org_id', '=', owner.orgId)
          .where('store_id', '=', owner.storeId)
          .where('product_id', '=', id)
          .executeTakeFirstOrThrow()
      ).qty,
    );
  /** A shift's line for a method: expected, sales and refunds. */
  const line = async (owner: Session, shiftId: string, method: string) => {
    const { report } = (await call(owner.token, 'GET', `/pos/shifts/${shiftId}`)).data;
    const row = report.methods.find((m: { method: string }) => m.method === method);
    return row && { expected: row.expected, sales: row.sales, refunds: row.refunds };
  };

  it('0.25 kg of 1.25 kg back: 813, stock up 250 g, still paid; the rest: exactly 3,250, refunded; more is 409', async () => {
    const owner = await registerOwner(t);
    const shift = (await call(owner.token, 'POST', '/pos/shifts', { opening_float: 20000 }, 201)).data;
    const sugar = await product(owner, { name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10 });
    const sold = await sale(owner, { lines: [{ product_id: sugar.id, qty: 1.25 }], payment_method: 'Cash' });
    expect([sold.total, await counted(owner, sugar.id)]).toEqual([4063, 8750]);

    const first = await refund(owner, sold.id, { lines: [{ product_id: sugar.id, qty: 0.25 }] });
    expect(first).toMatchObject({ status: 'paid', refunded_total: 813, refund_reason: null, refunded_at: null });
    expect(first.lines.map((l) => [l.qty, l.refunded_qty])).toEqual([[1.25, 0.25]]);
    expect(await counted(owner, sugar.id)).toBe(9000);
    expect((await call(owner.token, 'GET', `/pos/transactions/${sold.id}`)).data).toEqual(first);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 20000 + 4063 - 813, sales: 4063, refunds: 813 });
    expect((await call(owner.token, 'GET', '/pos/summary')).data).toMatchObject({ total_sales: 3250, refund_total: 813, refund_count: 1 });

    // More than the 1 kg left: 409 naming the line, and nothing moves.
    const over = await refused(owner, sold.id, { lines: [{ product_id: sugar.id, qty: 1.001 }] }, 409);
    expect(over.errors[0]).toMatchObject({
      code: 'INVALID_STATE',
      field: 'lines.0.qty',
      message: 'only 1 kg of Sukari is left to refund (1.25 kg sold)',
    });
    expect(await counted(owner, sugar.id)).toBe(9000);

    const rest = await refund(owner, sold.id, { lines: [{ product_id: sugar.id, qty: 1 }] });
    expect(rest).toMatchObject({ status: 'refunded', refunded_total: 4063, refund_reason: 'returned', reversal_shift_id: shift.id });
    expect(rest.lines.map((l) => l.refunded_qty)).toEqual([1.25]);
    expect(await counted(owner, sugar.id)).toBe(10_000);
    const parts = await t.db.db
      .selectFrom('refunds')
      .select('amount')
      .where('org_id', '=', owner.orgId)
      .where('transaction_id', '=', sold.id)
      .orderBy('created_at')
      .execute();
    expect(parts.map((p) => Number(p.amount))).toEqual([81300, 325000]);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 20000, sales: 4063, refunds: 4063 });
    expect((await call(owner.token, 'GET', '/pos/summary')).data).toMatchObject({ total_sales: 0, refund_total: 4063, refund_count: 1 });
    await refused(owner, sold.id, {}, 409);
  });

  it('a piece line takes whole numbers, a line the sale lacks is 400, another organisation’s sale 404; a partly refunded sale cannot be voided', async () => {
    const owner = await registerOwner(t);
    const soap = await product(owner, { name: 'Sabuni', selling_price: 1000, stock: 10 });
    const rice = await product(owner, { name: 'Mchele', unit: 'kg', selling_price: 2800, stock: 10 });
    const sold = await sale(owner, { lines: [{ product_id: soap.id, qty: 2 }], payment_method: 'Cash' });
    const half = await refused(owner, sold.id, { lines: [{ product_id: soap.id, qty: 0.5 }] }, 400);
    expect(half.errors[0]).toMatchObject({ field: 'lines.0.qty', message: 'a product sold by the piece takes whole numbers' });
    const other = await refused(owner, sold.id, { lines: [{ product_id: rice.id, qty: 1 }] }, 400);
    expect(JSON.stringify(other)).toContain('lines.0.product_id');
    const twice = await refused(
      owner,
      sold.id,
      {
        lines: [
          { product_id: soap.id, qty: 1 },
          { product_id: soap.id, qty: 1 },
        ],
      },
      400,
    );
    expect(JSON.stringify(twice)).toContain('lines.1.product_id');
    await refused(owner, sold.id, { lines: [{ product_id: soap.id, qty: 0 }] }, 400);
    const stranger = await registerOwner(t);
    await refused(stranger, sold.id, { lines: [{ product_id: soap.id, qty: 1 }] }, 404);
    expect(await counted(owner, soap.id)).toBe(8);

    const one = await refund(owner, sold.id, { lines: [{ product_id: soap.id, qty: 1 }] });
    expect(one).toMatchObject({ status: 'paid', refunded_total: 1000 });
    const voided = await call(owner.token, 'POST', `/pos/transactions/${sold.id}/void`, { reason: 'oops' }, 409);
    expect(JSON.stringify(voided)).toContain('refund the rest instead');
    // A refund with no lines takes what is left: the other bar.
    const rest = await refund(owner, sold.id, {});
    expect(rest).toMatchObject({ status: 'refunded', refunded_total: 2000 });
    expect(await counted(owner, soap.id)).toBe(10);
  });

  it('a whole refund with no lines is as before: refunded, no refund rows; the same keyed request twice refunds once', async () => {
    const owner = await registerOwner(t);
    const soap = await product(owner, { name: 'Sabuni', selling_price: 1000, stock: 10 });
    const whole = await sale(owner, { lines: [{ product_id: soap.id, qty: 2 }], payment_method: 'Cash' });
    expect(await refund(owner, whole.id, {})).toMatchObject({ status: 'refunded', refunded_total: 2000 });
    const rows = await t.db.db.selectFrom('refunds').select('id').where('org_id', '=', owner.orgId).execute();
    expect(rows).toEqual([]);

    const sold = await sale(owner, { lines: [{ product_id: soap.id, qty: 3 }], payment_method: 'Cash' });
    const send = () =>
      t.request('POST', `/pos/transactions/${sold.id}/refund`, {
        token: owner.token,
        body: { reason: 'returned', lines: [{ product_id: soap.id, qty: 1 }] },
        headers: { 'Idempotency-Key': 'refund-soap-1' },
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status, b.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(b.body.data).toEqual(a.body.data);
    expect(a.body.data).toMatchObject({ status: 'paid', refunded_total: 1000 });
    expect(await counted(owner, soap.id)).toBe(10 - 3 + 1);
  });

  it('a split sale partly refunded: the cash part first, then the wallet; the shift moves by exactly that', async () => {
    const owner = await registerOwner(t);
    const shift = (await call(owner.token, 'POST', '/pos/shifts', { opening_float: 20000 }, 201)).data;
    const crate = await product(owner, { name: 'Soda crate', selling_price: 12500, stock: 5 });
    const sugar = await product(owner, { name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10 });
    const sold = await sale(owner, {
      lines: [
        { product_id: crate.id, qty: 1 },
        { product_id: sugar.id, qty: 1 },
      ],
      payments: [
        { method: 'Cash', amount: 5000 },
        { method: 'M-Pesa', amount: 10750, reference: 'QK7H2M9X1P' },
      ],
    });
    expect(sold.total).toBe(15750);
    await refund(owner, sold.id, { lines: [{ product_id: sugar.id, qty: 0.5 }] });
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 20000 + 5000 - 1625, sales: 5000, refunds: 1625 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 10750, sales: 10750, refunds: 0 });
    // The crate: what is left of the cash part (3,375), then 9,125 by M-Pesa.
    await refund(owner, sold.id, { lines: [{ product_id: crate.id, qty: 1 }] });
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 20000, sales: 5000, refunds: 5000 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 1625, sales: 10750, refunds: 9125 });
    const last = await refund(owner, sold.id, { lines: [{ product_id: sugar.id, qty: 0.5 }] });
    expect(last).toMatchObject({ status: 'refunded', refunded_total: 15750 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 0, sales: 10750, refunds: 10750 });
    // Three refunds, the crate's by two methods: counted once each.
    expect((await call(owner.token, 'GET', `/pos/shifts/${shift.id}`)).data.report.refund_count).toBe(3);
  });

  it('a credit part: its unpaid balance is cleared first, the tab falls by that', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, { name: 'Soda', selling_price: 1000, stock: 20 });
    const customer = (await call(owner.token, 'POST', '/customers', { name: 'Halima Said', phone: '0754 321 000' })).data;
    const sold = await sale(owner, {
      lines: [{ product_id: soda.id, qty: 10 }],
      customer_id: customer.id,
      payments: [
        { method: 'M-Pesa', amount: 4000, reference: 'QK7H2M9X1Q' },
        { method: 'Credit', amount: 6000 },
      ],
    });
    expect(sold.status).toBe('credit');
    const tab = () =>
      t.db.db
        .selectFrom('credit_tabs')
        .select(['amount', 'paid_amount', 'written_off_amount', 'status'])
        .where('org_id', '=', owner.orgId)
        .where('transaction_id', '=', sold.id)
        .executeTakeFirstOrThrow();
    expect(await refund(owner, sold.id, { lines: [{ product_id: soda.id, qty: 3 }] })).toMatchObject({
      status: 'credit',
      refunded_total: 3000,
    });
    expect(await tab()).toMatchObject({ amount: 600000, written_off_amount: 300000, status: 'open' });
    // 5 more: the 3,000 still owed, then 2,000 by M-Pesa.
    await refund(owner, sold.id, { lines: [{ product_id: soda.id, qty: 5 }] });
    expect(await tab()).toMatchObject({ written_off_amount: 600000, status: 'written_off' });
    const parts = await t.db.db
      .selectFrom('refund_parts as rp')
      .innerJoin('refunds as r', (j) => j.onRef('r.org_id', '=', 'rp.org_id').onRef('r.id', '=', 'rp.refund_id'))
      .select(['rp.method', 'rp.amount', 'r.created_at'])
      .where('r.org_id', '=', owner.orgId)
      .orderBy('r.created_at')
      .orderBy('rp.method')
      .execute();
    expect(parts.map((p) => [p.method, Number(p.amount)])).toEqual([
      ['Credit', 300000],
      ['Credit', 300000],
      ['M-Pesa', 200000],
    ]);
  });

  it('a till pushes a partial refund; an old till’s refund with no lines takes the rest', async () => {
    const owner = await registerOwner(t);
    const sugar = await product(owner, { name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10 });
    const device_id = newId();
    await call(owner.token, 'POST', '/sync/devices', { device_id, name: 'Till 1' });
    const saleId = newId();
    let seq = 0;
    const m = (type: string, payload: Record<string, unknown>) => ({
      id: newId(),
      seq: ++seq,
      type,
      created_at: new Date(t.clock.now() - 60_000 + seq).toISOString(),
      payload,
    });
    const push = async (mutations: unknown[]) =>
      Envelope(PushResponse).parse(await call(owner.token, 'POST', '/sync/push', { device_id, mutations })).data.results;
    const first = await push([
      m('sale.create', {
        id: saleId,
        client_receipt_number: 'T1-1',
        lines: [{ product_id: sugar.id, qty: 1.25, unit_price: 3250 }],
        payment_method: 'Cash',
      }),
      m('sale.refund', { transaction_id: saleId, reason: 'wet', lines: [{ product_id: sugar.id, qty: 0.25 }] }),
    ]);
    expect(first.map((r) => [r.status, r.error?.message])).toEqual([
      ['applied', undefined],
      ['applied', undefined],
    ]);
    expect(first[1]!.result).toEqual({ transaction_id: saleId, status: 'paid' });
    const got = Envelope(Transaction).parse(await call(owner.token, 'GET', `/pos/transactions/${saleId}`)).data;
    expect([got.refunded_total, got.lines[0]!.refunded_qty]).toEqual([813, 0.25]);
    expect(await counted(owner, sugar.id)).toBe(9000);
    const bad = await push([m('sale.refund', { transaction_id: saleId, reason: 'wet', lines: [{ product_id: sugar.id, qty: 0.0001 }] })]);
    expect(bad[0]!.status).toBe('rejected');
    const old = await push([m('sale.refund', { transaction_id: saleId, reason: 'all of it' })]);
    expect(old[0]!.result).toEqual({ transaction_id: saleId, status: 'refunded' });
    expect(await counted(owner, sugar.id)).toBe(10_000);
    const after = Envelope(Transaction).parse(await call(owner.token, 'GET', `/pos/transactions/${saleId}`)).data;
    expect([after.refunded_total, after.lines[0]!.refunded_qty]).toEqual([4063, 1.25]);
  });
});
