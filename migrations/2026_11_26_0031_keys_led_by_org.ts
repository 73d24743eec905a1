/**
 * Every key of a tenant table is led by its organisation (issue 36): what a database that places
 * rows by organisation (Citus, a PostgreSQL partitioned by it) requires, since it can only enforce
 * a key whose rows all live in one place.
 *
 * - Unique indexes lead with `org_id` (both dialects, same names: a violation still names its field).
 * - PostgreSQL: every primary key leads with `org_id`; every foreign key between tenant tables is
 *   `(org_id, x_id) → (org_id, id)`, so a row can only point at a row of its own organisation.
 *   The two from the global `users` table to tenant tables are dropped: a reference table cannot
 *   point into a distributed one; tenancy's queries keep a user's organisation and store honest.
 * - SQLite: the composite primary keys of the child tables lead with `org_id` too (their tables are
 *   rebuilt, which also makes 0030's `org_id` NOT NULL there); tables keyed by `id` alone keep it,
 *   as do their single-column foreign keys: one file is never distributed, and an id is a UUID.
 *   Where a statement names such a key as PostgreSQL has it (`on conflict (org_id, id)`), SQLite
 *   gets a unique `(org_id, id)` index.
 * - Two indexes follow the queries that now name the organisation: the sale lines' covering index
 *   for analytics holds `org_id`, and a signed file link's lookup by file name gets an index of
 *   its own, its unique one now being `(org_id, file_name)`.
 *
 * The lists are this schema's at the time of writing. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, dropForeignKey, orgIdIndex, setPrimaryKey, sql } from './_helpers.js';

/** Tenant tables whose primary key does not lead with org_id: table → its columns today. */
const KEYS: Record<string, string[]> = {
  agent_actions: ['id'],
  agent_conversations: ['id'],
  agent_turns: ['conversation_id', 'seq'],
  ai_conversations: ['id'],
  ai_messages: ['id'],
  batch_movements: ['id'],
  batches: ['id'],
  categories: ['id'],
  credit_allocations: ['payment_id', 'tab_id'],
  credit_messages: ['id'],
  credit_notes: ['id'],
  credit_payments: ['id'],
  credit_tabs: ['id'],
  customers: ['id'],
  deliveries: ['id'],
  delivery_lines: ['id'],
  devices: ['id'],
  event_deliveries: ['event_id', 'subscriber'],
  events: ['id'],
  expenses: ['id'],
  fiscal_devices: ['store_id'],
  fiscal_receipts: ['id'],
  fiscal_z_reports: ['id'],
  invoices: ['id'],
  note_tags: ['note_id', 'tag'],
  notes: ['id'],
  notifications: ['id'],
  payments: ['id'],
  prescription_items: ['id'],
  prescriptions: ['id'],
  product_prices: ['id'],
  product_stock: ['store_id', 'product_id'],
  products: ['id'],
  recalls: ['id'],
  report_exports: ['id'],
  reviews: ['id'],
  sales_daily: ['store_id', 'day', 'payment_method', 'cashier_id'],
  sales_daily_products: ['store_id', 'day', 'product_id'],
  scheduled_reports: ['id'],
  stock_adjustments: ['id'],
  stock_quarantine: ['id'],
  stores: ['id'],
  subscription_events: ['id'],
  supplier_payment_allocations: ['payment_id', 'delivery_id'],
  supplier_payments: ['id'],
  suppliers: ['id'],
  sync_conflicts: ['id'],
  sync_mutations: ['device_id', 'seq'],
  transaction_line_batches: ['id'],
  transaction_lines: ['id'],
  transactions: ['id'],
  uploads: ['id'],
};

/** Unique indexes of tenant tables not led by org_id: name → [table, columns today, partial condition]. */
const UNIQUES: Record<string, [table: string, columns: string[], where?: string]> = {
  uq__batches__store_product_lot: ['batches', ['store_id', 'product_id', 'lot_number'], 'source_batch_id is null'],
  uq__credit_tabs__transaction_id: ['credit_tabs', ['transaction_id']],
  uq__devices__till_code: ['devices', ['store_id', 'till_code']],
  uq__fiscal_receipts__gc: ['fiscal_receipts', ['store_id', 'gc']],
  uq__fiscal_receipts__transaction_id: ['fiscal_receipts', ['transaction_id']],
  uq__fiscal_z_reports__znum: ['fiscal_z_reports', ['store_id', 'znum']],
  uq__invoices__number: ['invoices', ['number']],
  uq__prescriptions__corrects_id: ['prescriptions', ['corrects_id']],
  uq__sync_mutations__id: ['sync_mutations', ['id']],
  uq__transactions__number: ['transactions', ['store_id', 'number']],
  uq__uploads__file_name: ['uploads', ['file_name']],
  uq__uploads__key: ['uploads', ['key']],
};

/** Foreign keys between tenant tables: [table, column, the table it points at (by id)]. */
const REFERENCES: Array<[table: string, column: string, parent: string]> = [
  ['agent_turns', 'conversation_id', 'agent_conversations'],
  ['ai_messages', 'conversation_id', 'ai_conversations'],
  ['batch_movements', 'batch_id', 'batches'],
  ['batches', 'product_id', 'products'],
  ['batches', 'store_id', 'stores'],
  ['credit_allocations', 'payment_id', 'credit_payments'],
  ['credit_allocations', 'tab_id', 'credit_tabs'],
  ['credit_messages', 'customer_id', 'customers'],
  ['credit_notes', 'customer_id', 'customers'],
  ['credit_payments', 'customer_id', 'customers'],
  ['credit_tabs', 'customer_id', 'customers'],
  ['credit_tabs', 'store_id', 'stores'],
  ['credit_tabs', 'transaction_id', 'transactions'],
  ['deliveries', 'store_id', 'stores'],
  ['deliveries', 'supplier_id', 'suppliers'],
  ['delivery_lines', 'delivery_id', 'deliveries'],
  ['devices', 'store_id', 'stores'],
  ['event_deliveries', 'event_id', 'events'],
  ['expenses', 'store_id', 'stores'],
  ['note_tags', 'note_id', 'notes'],
  ['notes', 'store_id', 'stores'],
  ['notifications', 'store_id', 'stores'],
  ['payments', 'invoice_id', 'invoices'],
  ['prescription_items', 'prescription_id', 'prescriptions'],
  ['prescriptions', 'corrects_id', 'prescriptions'],
  ['prescriptions', 'store_id', 'stores'],
  ['prescriptions', 'transaction_id', 'transactions'],
  ['product_prices', 'product_id', 'products'],
  ['product_stock', 'product_id', 'products'],
  ['product_stock', 'store_id', 'stores'],
  ['products', 'category_id', 'categories'],
  ['recalls', 'product_id', 'products'],
  ['reviews', 'store_id', 'stores'],
  ['stock_adjustments', 'product_id', 'products'],
  ['stock_adjustments', 'store_id', 'stores'],
  ['stock_quarantine', 'product_id', 'products'],
  ['stock_quarantine', 'store_id', 'stores'],
  ['stock_quarantine', 'transaction_id', 'transactions'],
  ['supplier_payment_allocations', 'delivery_id', 'deliveries'],
  ['supplier_payment_allocations', 'payment_id', 'supplier_payments'],
  ['supplier_payments', 'delivery_id', 'deliveries'],
  ['supplier_payments', 'store_id', 'stores'],
  ['supplier_payments', 'supplier_id', 'suppliers'],
  ['sync_mutations', 'device_id', 'devices'],
  ['transaction_line_batches', 'batch_id', 'batches'],
  ['transaction_line_batches', 'transaction_id', 'transactions'],
  ['transaction_lines', 'product_id', 'products'],
  ['transaction_lines', 'transaction_id', 'transactions'],
  ['transactions', 'store_id', 'stores'],
];

/** A sale's lines with what analytics reads (migration 0010): now joined on org_id too, which the index must hold to answer alone. */
const LINES = ['transaction_id', 'product_id', 'qty', 'line_total', 'discount', 'tax', 'cost_price'];

/** Tables a till inserts into with its own id, `on conflict (org_id, id) do nothing`: SQLite needs that key as an index. */
const TILL_IDS = ['expenses', 'notes'];

/** From the global users table into tenant tables: dropped on PostgreSQL (see above). */
const FROM_GLOBAL: Array<[table: string, column: string, parent: string]> = [
  ['users', 'org_id', 'organisations'],
  ['users', 'store_id', 'stores'],
];

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
const list = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');
const keyName = (table: string, columns: string[]) => (columns.length > 1 ? `pk__${table}` : `${table}_pkey`);

async function replaceUniques(db: Kysely<any>, led: boolean): Promise<void> {
  for (const [name, [table, columns, where]] of Object.entries(UNIQUES)) {
    await run(db, `drop index "${name}"`);
    const cols = led ? ['org_id', ...columns] : columns;
    await run(db, `create unique index "${name}" on "${table}" (${list(cols)})${where ? ` where ${where}` : ''}`);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of [...REFERENCES, ...FROM_GLOBAL]) await dropForeignKey(db, table, `${table}_${column}_fkey`);
  for (const [table, columns] of Object.entries(KEYS)) await setPrimaryKey(db, table, keyName(table, columns), ['org_id', ...columns]);
  await replaceUniques(db, true);
  for (const table of TILL_IDS) await orgIdIndex(db, table);
  await run(db, 'drop index "ix__transaction_lines__analytics"');
  await run(db, `create index "ix__transaction_lines__analytics" on "transaction_lines" (${list(['org_id', ...LINES])})`);
  // A signed file link names the file alone (a read across organisations): its unique index now leads with org_id.
  await run(db, 'create index "ix__uploads__file_name" on "uploads" ("file_name")');
  for (const [table, column, parent] of REFERENCES) {
    await addForeignKey(db, table, `fk__${table}__${column}`, ['org_id', column], parent, ['org_id', 'id']);
  }
}

/** Back to single-column keys; on SQLite `org_id` stays NOT NULL where a rebuild made it so (0030's down drops the column). */
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of REFERENCES) await dropForeignKey(db, table, `fk__${table}__${column}`);
  await replaceUniques(db, false);
  for (const table of TILL_IDS) await orgIdIndex(db, table, true);
  await run(db, 'drop index "ix__uploads__file_name"');
  await run(db, 'drop index "ix__transaction_lines__analytics"');
  await run(db, `create index "ix__transaction_lines__analytics" on "transaction_lines" (${list(LINES)})`);
  for (const [table, columns] of Object.entries(KEYS)) await setPrimaryKey(db, table, keyName(table, columns), columns);
  for (const [table, column, parent] of [...REFERENCES, ...FROM_GLOBAL]) {
    await addForeignKey(db, table, `${table}_${column}_fkey`, [column], parent, ['id']);
  }
}
