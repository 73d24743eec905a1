/**
 * The replica's own migrations, frozen once shipped (like the server's): an SDK upgrade adds a
 * migration and `Till.open` brings an existing till database up to date in place, keeping its
 * device id, tokens and queue. Never edit a shipped migration; add the next one.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

const json = 'text';

export const LOCAL_MIGRATIONS: Record<string, Migration> = {
  '0001_replica_and_queue': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('meta')
        .ifNotExists()
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('rows')
        .ifNotExists()
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .addPrimaryKeyConstraint('rows_pk', ['entity', 'id'])
        .execute();
      await db.schema
        .createTable('categories')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('products')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sku', 'text')
        .addColumn('barcode', 'text')
        .addColumn('category_id', 'text')
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_barcode').ifNotExists().on('products').column('barcode').execute();
      await db.schema.createIndex('products_sku').ifNotExists().on('products').column('sku').execute();
      await db.schema.createIndex('products_name').ifNotExists().on('products').column('name').execute();
      await db.schema
        .createTable('stock')
        .ifNotExists()
        .addColumn('product_id', 'text', (c) => c.primaryKey())
        .addColumn('qty', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('customers')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('outstanding', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customers_phone').ifNotExists().on('customers').column('phone').execute();
      await db.schema
        .createTable('credit_tabs')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_tabs_customer').ifNotExists().on('credit_tabs').columns(['customer_id', 'created_at']).execute();
      await db.schema
        .createTable('transactions')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('client_receipt_number', 'text')
        .addColumn('number', 'integer')
        .addColumn('receipt_number', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('sync_state', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transactions_created').ifNotExists().on('transactions').column('created_at').execute();
      await db.schema
        .createTable('notifications')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('is_read', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('queue')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', json, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('result', json)
        .addColumn('acked_at', 'integer')
        .addColumn('undo', json)
        .execute();
      await db.schema.createIndex('queue_seq').ifNotExists().on('queue').column('seq').execute();
      await db.schema
        .createTable('bootstrap_rows')
        .ifNotExists()
        .addColumn('pos', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
    },
  },
  '0002_conflicts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('conflicts')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('mutation_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await sql`create index if not exists queue_state_seq on queue (state, seq)`.execute(db);
    },
  },
  '0003_product_generic_name': {
    // Local product search matches a medicine's generic name as it does the name: a column the
    // scan reads, filled here from the JSON each product row already holds (an existing replica
    // searches by generic name without a new bootstrap). Re-runnable: SQLite has no
    // `add column if not exists`, and a till may stop halfway through.
    async up(db: Kysely<any>) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from pragma_table_info('products') where name = 'generic_name'`.execute(db);
      if (!rows[0]?.n) await db.schema.alterTable('products').addColumn('generic_name', 'text').execute();
      await sql`update products set generic_name = json_extract(data, '$.generic_name')`.execute(db);
    },
  },
  '0004_pharmacy': {
    // The pharmacy till (issue 14). `batches`: the store's batches (sync entity `batch`), with the
    // columns FEFO reads and `qty_on_hand` moved by this till's sales until the server's row
    // arrives. `addo_list`: the platform's ADDO-permitted list, replaced whole when its version
    // (meta `addo_list_version`) differs from the server's; `match_key` is the shared
    // `addoMatchKey`, so a sale reads only the entries its medicines could match.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('batches')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('lot_number', 'text', (c) => c.notNull())
        .addColumn('expiry_date', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('qty_on_hand', 'integer', (c) => c.notNull())
        .addColumn('received_at', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('batches_product').ifNotExists().on('batches').column('product_id').execute();
      await db.schema
        .createTable('addo_list')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('match_key', 'text', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('addo_list_key').ifNotExists().on('addo_list').column('match_key').execute();
      // A till on an older SDK kept the server's batches as plain rows (an entity it did not know):
      // move them into the table, so an upgraded till sells from its lots without a new bootstrap.
      await sql`
        insert or replace into batches (id, product_id, lot_number, expiry_date, status, qty_on_hand, received_at, data)
        select id, json_extract(data, '$.product_id'), json_extract(data, '$.lot_number'), json_extract(data, '$.expiry_date'),
               json_extract(data, '$.status'), json_extract(data, '$.qty_on_hand'),
               cast(round((julianday(json_extract(data, '$.received_at')) - 2440587.5) * 86400000) as integer), data
        from rows where entity = 'batch'`.execute(db);
      await sql`delete from rows where entity = 'batch'`.execute(db);
    },
  },
  '0005_shifts': {
    // Shifts and cash-up (issue 37). `shifts`: the shifts opened on this till (data = the shared
    // `TillShift`). `shift_movements`: the money this till moved in each (a sale in, a refund or void
    // out, a payout, a credit payment, cents), from which the X report is worked out offline.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('shifts')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('cashier_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('opening_float', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('shift_movements')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shift_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shift_movements_shift').ifNotExists().on('shift_movements').column('shift_id').execute();
    },
  },
  '0006_queue_seq_index': {
    // A sale writes one index page fewer to the WAL before its durable commit (issue 39): every
    // read of the queue by seq also filters on its state, which `queue_state_seq` (0002) serves.
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('queue_seq').ifExists().execute();
    },
  },
  '0007_shift_movement_count': {
    // Split tender (issue 51): a sale paid several ways is a movement per part, and counts once in
    // the X report, under its first part (as the server counts it); its other parts count 0.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('shift_movements')
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  '0008_stock_in_counts': {
    // Issue 51: the till's levels are counts (one a piece, or a thousandth of a measured unit), as
    // the server keeps them, so a weighed sale moves them exactly. A piece product's level is its
    // count already; a measured one pulled before this held its unit (9.5 kg) and becomes 9,500.
    async up(db: Kysely<any>) {
      await sql`update stock set qty = cast(round(qty * 1000) as integer) where product_id in (select id from products where json_extract(data, '$.unit') in ('kg', 'g', 'l', 'ml', 'm'))`.execute(
        db,
      );
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => LOCAL_MIGRATIONS };

/** Run the local migrations up to `target` (default: all); answers the names applied now. */
export async function migrateLocal(db: Kysely<any>, target?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
