/**
 * Issue 54, stock transfers between an organisation's stores over real HTTP: the stock leaves the
 * token's store and arrives in the other in one transaction, each side a stock adjustment
 * (`transfer_out` / `transfer_in`) and a change-log entry for each store's tills; a line that
 * would go below zero refuses the whole transfer (nothing moved); another organisation's store or
 * product is 404; a retried request with the same Idempotency-Key moves the stock once; a staff
 * member without the `stock` permission is refused.
 */
import { randomUUID } from 'node:crypto';
import { Envelope, PagedEnvelope, StockTransfer, type Unit } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('stock transfers between stores', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (
    s: { token: string },
    method: string,
    path: string,
    body?: unknown,
    status = 200,
    headers?: Record<string, string>,
  ) => {
    const res = await t.request(method, path, { token: s.token, body, ...(headers ? { headers } : {}) });
    expect(res.status, res.text).toBe(status);
    return res;
  };
  const product = async (s: Session, name: string, stock: number, unit: Unit = 'piece') =>
    (await call(s, 'POST', '/inventory/products', { name, unit, stock, cost_price: 1000, selling_price: 1500 })).body.data.id as string;
  /** A store's level in counts, read from the table (the API answers only the token's store). */
  const level = async (storeId: string, productId: string) =>
    Number(
      (
        await t.db.db
          .selectFrom('product_stock')
          .select('qty')
          .where('store_id', '=', storeId)
          .where('product_id', '=', productId)
          .executeTakeFirst()
      )?.qty ?? 0,
    );
  const reasons = async (storeId: string, productId: string) =>
    (
      await t.db.db
        .selectFrom('stock_adjustments')
        .select(['reason', 'qty_change', 'qty_after'])
        .where('store_id', '=', storeId)
        .where('product_id', '=', productId)
        .where('reason', 'like', 'transfer%')
        .execute()
    ).map((a) => [a.reason, Number(a.qty_change), Number(a.qty_after)]);
  const setUp = async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    return { owner, branch };
  };

  it('moves the stock out of this store and into the other in one go, each side an adjustment both tills pull', async () => {
    const { owner, branch } = await setUp();
    const soda = await product(owner, 'Soda', 24);
    const rice = await product(owner, 'Mchele', 10.5, 'kg');
    const before = Number(
      (
        await t.db.db
          .selectFrom('change_log')
          .select((eb) => eb.fn.max('version').as('v'))
          .where('org_id', '=', owner.orgId)
          .executeTakeFirst()
      )?.v ?? 0,
    );
    const res = await call(owner, 'POST', '/inventory/transfers', {
      to_store_id: branch.id,
      lines: [
        { product_id: soda, qty: 6 },
        { product_id: rice, qty: 2.25 },
      ],
      note: 'for the weekend',
    });
    const moved = Envelope(StockTransfer).parse(res.body).data;
    expect(moved).toMatchObject({
      from_store_id: owner.storeId,
      to_store_id: branch.id,
      to_store_name: 'Kariakoo Branch',
      note: 'for the weekend',
    });
    expect(moved.lines.map((l) => [l.name, l.qty])).toEqual([
      ['Soda', 6],
      ['Mchele', 2.25],
    ]);
    expect((await call(owner, 'GET', `/inventory/products/${soda}`)).body.data.stock).toBe(18);
    expect((await call(owner, 'GET', `/inventory/products/${rice}`)).body.data.stock).toBe(8.25);
    expect(await level(branch.id, soda)).toBe(6);
    expect(await reasons(owner.storeId, soda)).toEqual([['transfer_out', -6, 18]]);
    expect(await reasons(branch.id, soda)).toEqual([['transfer_in', 6, 6]]);
    const logged = await t.db.db
      .selectFrom('change_log')
      .select(['entity', 'entity_id', 'store_id'])
      .where('org_id', '=', owner.orgId)
      .where('version', '>', before)
      .where('entity', '=', 'stock')
      .execute();
    expect(
      logged
        .filter((c) => c.entity_id === soda)
        .map((c) => c.store_id)
        .sort(),
    ).toEqual([owner.storeId, branch.id].sort());

    const listed = PagedEnvelope(StockTransfer).parse((await call(owner, 'GET', '/inventory/transfers')).body);
    expect(listed.data.map((x) => x.id)).toEqual([moved.id]);
    expect((await call(owner, 'GET', '/inventory/transfers')).body.meta.total).toBe(1);
    expect((await call(owner, 'GET', '/inventory/transfers', undefined, 200)).body.data[0].lines).toHaveLength(2);
    const incoming = await call(owner, 'GET', '/inventory/transfers?direction=in');
    expect(incoming.body.data).toEqual([]);
  });

  it('refuses the whole transfer when a line would go below zero: nothing moved, the line named', async () => {
    const { owner, branch } = await setUp();
    const soda = await product(owner, 'Soda', 24);
    const sabuni = await product(owner, 'Sabuni', 3);
    const res = await call(
      owner,
      'POST',
      '/inventory/transfers',
      {
        to_store_id: branch.id,
        lines: [
          { product_id: soda, qty: 6 },
          { product_id: sabuni, qty: 4 },
        ],
      },
      409,
    );
    expect(res.body.errors[0]).toMatchObject({ code: 'INSUFFICIENT_STOCK', field: 'lines.1.qty' });
    expect(await level(owner.storeId, soda)).toBe(24);
    expect(await level(branch.id, soda)).toBe(0);
    expect(await reasons(owner.storeId, soda)).toEqual([]);
    expect((await call(owner, 'GET', '/inventory/transfers')).body.data).toEqual([]);
  });

  it("404s another organisation's store or product, refuses this store, an inactive one and a piece product's fraction", async () => {
    const { owner, branch } = await setUp();
    const other = await setUp();
    const soda = await product(owner, 'Soda', 24);
    const theirs = await product(other.owner, 'Soda', 24);
    const send = (body: unknown, status: number) => call(owner, 'POST', '/inventory/transfers', body, status);
    expect((await send({ to_store_id: other.branch.id, lines: [{ product_id: soda, qty: 1 }] }, 404)).body.errors[0].field).toBe(
      'to_store_id',
    );
    expect((await send({ to_store_id: branch.id, lines: [{ product_id: theirs, qty: 1 }] }, 404)).body.errors[0].field).toBe(
      'lines.0.product_id',
    );
    expect((await send({ to_store_id: owner.storeId, lines: [{ product_id: soda, qty: 1 }] }, 400)).body.errors[0].field).toBe(
      'to_store_id',
    );
    expect((await send({ to_store_id: branch.id, lines: [{ product_id: soda, qty: 1.5 }] }, 400)).body.errors[0].field).toBe('lines.0.qty');
    await t.db.db.updateTable('stores').set({ is_active: 0 }).where('id', '=', branch.id).execute();
    expect((await send({ to_store_id: branch.id, lines: [{ product_id: soda, qty: 1 }] }, 400)).body.errors[0].field).toBe('to_store_id');
    expect(await level(owner.storeId, soda)).toBe(24);
    expect(await level(other.owner.storeId, theirs)).toBe(24);
  });

  it('moves the stock once for a retried Idempotency-Key; a staff member without the stock permission is refused', async () => {
    const { owner, branch } = await setUp();
    const soda = await product(owner, 'Soda', 24);
    const body = { to_store_id: branch.id, lines: [{ product_id: soda, qty: 5 }] };
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await call(owner, 'POST', '/inventory/transfers', body, 200, key);
    const again = await call(owner, 'POST', '/inventory/transfers', body, 200, key);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await level(owner.storeId, soda)).toBe(19);
    expect(await level(branch.id, soda)).toBe(5);

    const staff = await createStaff(t, owner, { can_manage_stock: false });
    expect((await call(staff, 'POST', '/inventory/transfers', body, 403)).body.errors[0].code).toBe('FORBIDDEN');
    expect((await call(staff, 'GET', '/inventory/transfers')).body.data).toHaveLength(1);
  });
});
