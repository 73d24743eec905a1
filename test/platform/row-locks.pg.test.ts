/**
 * Postgres row locks against foreign-key checks. A sale locks its store's row (receipt numbers)
 * and then its stock rows; a stock adjustment updates a stock row and then inserts its record,
 * whose foreign key to the store takes FOR KEY SHARE on the store's row. Locked FOR UPDATE, the
 * store's row refused that share: the two waited on each other and Postgres killed one as a
 * deadlock (seen in the 500-till soak). FOR NO KEY UPDATE (db/dialect.ts `forUpdate`) lets the
 * foreign-key check through, so the adjustment commits and the sale then takes the stock row.
 */
import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forUpdate } from '../../server/src/db/dialect.js';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('row locks and foreign keys (Postgres)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('a sale holding its store row and an adjustment inserting under that store both commit, in order', async () => {
    const owner = await registerOwner(t);
    const product = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Unga 2kg', selling_price: 4000, stock: 50 } })
    ).body.data;
    const gate = () => {
      let open!: () => void;
      return { opened: new Promise<void>((r) => (open = r)), open: () => open() };
    };
    const storeLocked = gate();
    const stockUpdated = gate();
    const order: string[] = [];

    const sale = t.db.db.transaction().execute(async (trx) => {
      await forUpdate('postgres', trx.selectFrom('stores').select('last_number').where('id', '=', owner.storeId)).execute();
      storeLocked.open();
      await stockUpdated.opened;
      const [row] = await forUpdate(
        'postgres',
        trx.selectFrom('product_stock').select('qty').where('store_id', '=', owner.storeId).where('product_id', '=', product.id),
      ).execute();
      order.push(`sale read ${row!.qty}`);
    });
    const adjust = t.db.db.transaction().execute(async (trx) => {
      await storeLocked.opened;
      await trx
        .updateTable('product_stock')
        .set({ qty: 55 })
        .where('store_id', '=', owner.storeId)
        .where('product_id', '=', product.id)
        .execute();
      stockUpdated.open();
      await trx
        .insertInto('stock_adjustments')
        .values({
          id: newId(),
          org_id: owner.orgId,
          store_id: owner.storeId,
          product_id: product.id,
          qty_change: 5,
          qty_after: 55,
          reason: 'received',
          note: null,
          adjusted_by: null,
          created_at: Date.now(),
        })
        .execute();
      order.push('adjustment committed');
    });
    await Promise.all([sale, adjust]);
    expect(order).toEqual(['adjustment committed', 'sale read 55']);
  }, 20_000);
});
