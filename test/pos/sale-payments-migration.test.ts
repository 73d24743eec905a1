/**
 * Migration 0041 (issue 51): every sale of before gets one part, its method and its total to the
 * cent, with its reference, phone and verification; `down` drops the table and leaves the sales as
 * they were. Sales of each kind are made through the API, the migration taken down and up again.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { registerOwner, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const MIGRATION = '2026_12_01_0041_sale_payments';
const names = Object.keys(migrations);
const BEFORE = names[names.indexOf(MIGRATION) - 1]!;

describe('migration 0041: one part per sale of before', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('backfills each sale with its method and total exactly, and down drops only the parts', async () => {
    const owner = await registerOwner(t);
    const post = async (path: string, body: unknown) => {
      const res = await t.request('POST', path, { token: owner.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const soap = await post('/inventory/products', { name: 'Sabuni', selling_price: 1550.55, stock: 100 });
    const customer = await post('/customers', { name: 'Halima', phone: uniquePhone() });
    const line = (qty: number) => [{ product_id: soap.id, qty }];
    const sales = [
      await post('/pos/sale', { lines: line(3), payment_method: 'Cash', cash_tendered: 5000, discount_pct: 7.5 }),
      await post('/pos/sale', { lines: line(1), payment_method: 'M-Pesa', payment_reference: 'QK7H2M9X1P', payment_phone: '0754000111' }),
      await post('/pos/sale', { lines: line(2), payment_method: 'Credit', customer_id: customer.id }),
      await post('/pos/sale', { lines: line(7), payment_method: 'Bank', payment_reference: 'SLIP-1' }),
    ];
    const refunded = await post(`/pos/transactions/${sales[3].id}/refund`, { reason: 'returned' });
    expect(refunded.status).toBe('refunded');
    const ids = sales.map((s) => s.id);
    const money = () =>
      t.db.db
        .selectFrom('transactions')
        .select(['id', 'payment_method', 'total', 'payment_reference', 'payment_phone', 'payment_verification', 'status'])
        .where('id', 'in', ids)
        .orderBy('number')
        .execute();
    const parts = () =>
      t.db.db.selectFrom('transaction_payments').selectAll().where('transaction_id', 'in', ids).orderBy('transaction_id').execute();
    const sold = await money();
    const written = await parts();

    const migrator = new Migrator({ db: t.db.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    expect((await t.db.db.introspection.getTables()).map((x) => x.name)).not.toContain('transaction_payments');
    expect(await money()).toEqual(sold);

    expect(await migrateToLatest(t.db.db)).toEqual(names.filter((name) => name > BEFORE));
    expect(await money()).toEqual(sold);
    const backfilled = await parts();
    // Money columns are bigint: PostgreSQL answers them as strings.
    const exact = (rows: typeof backfilled) => rows.map((p) => ({ ...p, amount: Number(p.amount), mirrored: Number(p.mirrored) }));
    expect(exact(backfilled)).toEqual(
      sold
        .map((s) => ({
          org_id: owner.orgId,
          transaction_id: s.id,
          seq: 1,
          method: s.payment_method,
          amount: Number(s.total),
          reference: s.payment_reference,
          phone: s.payment_phone,
          verification: s.payment_verification,
          // Migration 0049 (issue 52): no sale of before was an exchange's.
          mirrored: 0,
        }))
        .sort((a, b) => a.transaction_id.localeCompare(b.transaction_id)),
    );
    // What the sales wrote themselves is what the backfill gives a sale of before.
    expect(exact(backfilled)).toEqual(exact(written));
    const totals = await sql<{ n: number }>`select count(*) as n from transactions t where not exists (select 1 from
      transaction_payments p where p.org_id = t.org_id and p.transaction_id = t.id)`.execute(t.db.db);
    expect(Number(totals.rows[0]!.n)).toBe(0);
    // The answer reads the parts back.
    const read = await t.request('GET', `/pos/transactions/${sales[0].id}`, { token: owner.token });
    expect(read.body.data.payments).toEqual([{ method: 'Cash', amount: sales[0].total, reference: null, phone: null, verification: null }]);
  });
});
