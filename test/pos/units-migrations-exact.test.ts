/**
 * Issue 51's migrations (0039 units, 0040 packs, 0041 sale payments, 0042 scale barcodes) keep every
 * existing row exact. A shop as it was before them (piece products, stock, sales of each method with
 * lines, a credit payment, a delivery, pharmacy lots, a refund and a void, a closed shift) is made
 * through the API; the database is taken down to before 0039, up through 0042, and down and up once
 * more. Every row of every table is compared: down, it is the row as it was less the new columns;
 * up, it is the row as the API wrote it (unit `piece`, the pack and scale columns null, one payment
 * part per sale). A piece product's counts are its pieces: nothing is rewritten.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { registerOwner, uniquePhone } from '../setup/factories.js';
import { newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const FIRST = '2026_12_01_0039_product_units';
const names = Object.keys(migrations);
const BEFORE = names[names.indexOf(FIRST) - 1]!;
/** What 0039-0042 add, and the later migrations taken down with them (0044's refunds, 0045's refund figures of a sale, 0046's stock-takes, 0047's purchase orders, 0048's supplier lead times, 0052's retired tills, 0053's stock transfers): new tables, and new columns of existing ones. */
const NEW_TABLES = [
  'product_packs',
  'transaction_payments',
  'refunds',
  'refund_lines',
  'refund_parts',
  'stock_takes',
  'stock_take_lines',
  'stock_take_counts',
  'purchase_orders',
  'purchase_order_lines',
  'purchase_order_deliveries',
  'stock_transfers',
];
const NEW_COLUMNS: Record<string, string[]> = {
  products: ['unit', 'scale_code'],
  organisations: ['scale_barcodes'],
  transaction_lines: ['pack_id', 'pack_name', 'pack_qty'],
  delivery_lines: ['pack_id', 'pack_units'],
  transactions: ['part_refunds', 'refunded_total', 'refunded_tax'],
  suppliers: ['lead_time_days'],
  devices: ['retired_at'],
};
/** The migrator's own bookkeeping, which a migration changes, and the rate limiter's counters, which the test's reads bump. */
const BOOKKEEPING = ['kysely_migration', 'kysely_migration_lock', 'rate_limits'];
/**
 * 0050's words index of products on SQLite (an FTS5 table and its shadow tables): an index, taken
 * down and rebuilt with the migrations after 0039, whose blobs depend on how it was built, not rows.
 */
const isWordsIndex = (name: string) => name.startsWith('products_words');

type Rows = Record<string, Array<Record<string, unknown>>>;
/**
 * A partition of a table partitioned by organisation (`delivery_lines_p0`: test/setup/partition-by-org.ts),
 * whose rows its table answers. A table a migration drops and creates again comes back unpartitioned
 * (that layout is the test setup's, made after migrating): its rows are compared, not where they sit.
 */
const isPartition = (name: string) => /_p\d+$/.test(name);

describe('migrations 0039-0042 keep every existing row exact, down and up', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Every row of every table, each table's rows in a fixed order. */
  const everyRow = async (): Promise<Rows> => {
    const tables = (await t.db.db.introspection.getTables()).filter(
      (x) => !x.isView && !isPartition(x.name) && !BOOKKEEPING.includes(x.name) && !isWordsIndex(x.name),
    );
    const out: Rows = {};
    for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db.db);
      out[name] = rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    return out;
  };
  /** The rows as they were before 0039: without the new tables and columns. */
  const before = (rows: Rows): Rows =>
    Object.fromEntries(
      Object.entries(rows)
        .filter(([table]) => !NEW_TABLES.includes(table))
        .map(([table, list]) => [
          table,
          list
            .map((r) => Object.fromEntries(Object.entries(r).filter(([c]) => !NEW_COLUMNS[table]?.includes(c))))
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        ]),
    );

  it('a shop of before: every quantity and amount the same figure after down, up, down and up', async () => {
    const owner = await registerOwner(t);
    const call = async (method: string, path: string, body?: unknown, token = owner.token) => {
      const res = await t.request(method, path, { token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const soap = await call('POST', '/inventory/products', { name: 'Sabuni', selling_price: 1550.55, cost_price: 1100, stock: 100 });
    const soda = await call('POST', '/inventory/products', { name: 'Soda 500ml', selling_price: 1000, cost_price: 700, stock: 48 });
    const customer = await call('POST', '/customers', { name: 'Halima', phone: uniquePhone() });
    const shift = await call('POST', '/pos/shifts', { opening_float: 20_000 });
    const sales = [
      await call('POST', '/pos/sale', {
        lines: [
          { product_id: soap.id, qty: 3 },
          { product_id: soda.id, qty: 2 },
        ],
        payment_method: 'Cash',
        cash_tendered: 10_000,
        discount_pct: 7.5,
      }),
      await call('POST', '/pos/sale', {
        lines: [{ product_id: soda.id, qty: 5 }],
        payment_method: 'M-Pesa',
        payment_reference: 'QK7H2M9X1P',
        payment_phone: '0754000111',
      }),
      await call('POST', '/pos/sale', { lines: [{ product_id: soap.id, qty: 4 }], payment_method: 'Credit', customer_id: customer.id }),
      await call('POST', '/pos/sale', { lines: [{ product_id: soap.id, qty: 7 }], payment_method: 'Bank', payment_reference: 'SLIP-1' }),
      await call('POST', '/pos/sale', { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' }),
    ];
    await call('POST', `/pos/transactions/${sales[3].id}/refund`, { reason: 'returned' });
    await call('POST', `/pos/transactions/${sales[4].id}/void`, { reason: 'rang twice' });
    await call('POST', `/credits/customers/${customer.id}/payments`, { method: 'Cash', amount: 2_000 });
    await call('POST', `/inventory/products/${soda.id}/adjust`, { qty_change: -3, reason: 'broken' });
    const supplier = await newSupplier(t, owner);
    await newDelivery(t, owner, supplier.id, { status: 'delivered', lines: [{ product_id: soda.id, qty: 24, unit_cost: 650 }] });
    await call('POST', `/pos/shifts/${shift.id}/close`, { counted: { Cash: 30_000 } });
    const chemist = await pharmacyOwner(t);
    const amoxil = await newMedicine(t, chemist, { name: 'Amoxil 250mg' });
    await receiveLots(t, chemist, [
      { product_id: amoxil.id, lot_number: 'AMX-1', expiry_date: '2027-06-30', qty: 30 },
      { product_id: amoxil.id, lot_number: 'AMX-2', expiry_date: '2028-01-31', qty: 20 },
    ]);
    await call('POST', '/pos/sale', { lines: [{ product_id: amoxil.id, qty: 33 }], payment_method: 'Cash' }, chemist.token);

    // A piece product's counts are its pieces: what the API answers is what the columns hold.
    const stockOf = async (id: string, token = owner.token) => (await call('GET', `/inventory/products/${id}`, undefined, token)).stock;
    const held = async (id: string) =>
      Number((await sql<{ q: number }>`select sum(qty) as q from product_stock where product_id = ${id}`.execute(t.db.db)).rows[0]!.q);
    const figures = async () => ({
      soap: await stockOf(soap.id),
      soda: await stockOf(soda.id),
      amoxil: await stockOf(amoxil.id, chemist.token),
    });
    // soap 100 - 3 - 4 - 7 + 7 (refund); soda 48 - 2 - 5 - 1 + 1 (void) - 3 + 24; amoxil 50 - 33.
    const expected = { soap: 93, soda: 62, amoxil: 17 };
    expect(await figures()).toEqual(expected);
    expect([await held(soap.id), await held(soda.id), await held(amoxil.id)]).toEqual([93, 62, 17]);
    const lines = await t.db.db
      .selectFrom('transaction_lines')
      .select(['transaction_id', 'qty'])
      .where('transaction_id', '=', sales[0].id)
      .orderBy('qty')
      .execute();
    expect(lines.map((l) => Number(l.qty))).toEqual([2, 3]);
    const units = await t.db.db.selectFrom('products').select('unit').distinct().execute();
    expect(units).toEqual([{ unit: 'piece' }]);

    const written = await everyRow();
    expect(written.transaction_payments).toHaveLength(6);
    expect(written.product_packs).toEqual([]);
    for (const table of [
      'products',
      'product_stock',
      'stock_adjustments',
      'transactions',
      'transaction_lines',
      'deliveries',
      'delivery_lines',
      'batches',
      'batch_movements',
      'shifts',
      'credit_payments',
    ])
      expect(written[table]?.length, table).toBeGreaterThan(0);

    const migrator = new Migrator({ db: t.db.db, provider: { getMigrations: async () => migrations } });
    for (let round = 1; round <= 2; round++) {
      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      const down = await everyRow();
      expect(Object.keys(down).filter((table) => NEW_TABLES.includes(table))).toEqual([]);
      expect(down).toEqual(before(written));
      expect(await migrateToLatest(t.db.db)).toEqual(names.filter((name) => name > BEFORE));
      expect(await everyRow()).toEqual(written);
      expect(await figures()).toEqual(expected);
    }
  });
});
