/**
 * What a till holds (design §4), kind by kind: which rows are in its set and how each is shaped,
 * with the same mappers the REST routes answer with. Pull reads the changed ids of a kind through
 * `rows({ ids })`; bootstrap walks a kind by id through `rows({ after, limit })`. A row outside the
 * set (gone, another store's, a settled tab, a sale older than the window) is simply not returned.
 */
import { fromCount, OwingTabStatus, type SyncEntity } from '@duka/shared';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { toOrganisation, toStore } from '../../../modules/tenancy/tenancy.exports.js';
import { tabsWithNames, toCreditTab } from '../../../modules/credits/credits.exports.js';
import { customersWithBalance, toCustomer } from '../../../modules/customers/customers.exports.js';
import { productsWithStock, toCategory, toProducts } from '../../../modules/inventory/inventory.exports.js';
import type { FileAddress } from '../../../modules/uploads/uploads.exports.js';
import { tillBatches, toBatch } from '../../../modules/pharmacy/pharmacy.exports.js';
import { storeNotes, toSyncNote } from '../../../modules/notebook/notebook.exports.js';
import { toNotification } from '../../../modules/notifications/notifications.exports.js';
import { saleExtras, withLines } from '../../../modules/pos/pos.exports.js';
import { productUnit } from '../../../modules/stock-levels/stock-levels.exports.js';
import { iso } from '../../../lib/clock.js';

/** Transactions a till holds: its store's of the last 30 days. */
export const TRANSACTION_WINDOW_MS = 30 * 86_400_000;

/** Whose set: from the access token, plus the instants the set depends on. */
export interface Scope {
  orgId: string;
  storeId: string;
  /** Transactions created at or after this instant are held. */
  since: number;
  /** Today (`YYYY-MM-DD`) in the organisation's time zone, for a tab's `is_overdue`. */
  today: string;
  /** What an uploaded image's address is built from (the server's PUBLIC_URL and BASE_PATH). */
  files: FileAddress;
}

export interface EntityRow {
  id: string;
  data: Record<string, unknown>;
}

/** `ids`: exactly these (pull). `after` + `limit`: the next rows by id (bootstrap). */
export interface RowFilter {
  ids?: string[];
  after?: string | null;
  limit?: number;
}

export interface EntityKind {
  entity: SyncEntity;
  rows(db: Kysely<Database>, scope: Scope, f: RowFilter): Promise<EntityRow[]>;
  count(db: Kysely<Database>, scope: Scope): Promise<number>;
}

/** Apply a RowFilter to a query keyed by `column`, in id order. */
function narrow<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  column: string,
  f: RowFilter,
): SelectQueryBuilder<DB, TB, O> {
  const col = sql.ref<string>(column);
  let q = qb;
  if (f.ids) q = q.where(col as never, 'in', f.ids as never);
  if (f.after) q = q.where(col as never, '>', f.after as never);
  q = q.orderBy(col as never);
  if (f.limit !== undefined) q = q.limit(f.limit);
  return q;
}

const nothingAsked = (f: RowFilter) => (f.ids !== undefined && f.ids.length === 0) || f.limit === 0;

async function counted(qb: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = await qb.select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number((row as { n?: number | string } | undefined)?.n ?? 0);
}

/** Kinds in bootstrap order: what a row refers to comes before it. */
export const KINDS: EntityKind[] = [
  {
    entity: 'organisation',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(db.selectFrom('organisations').selectAll().where('id', '=', s.orgId), 'id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toOrganisation(r) }));
    },
    count: (db, s) => counted(db.selectFrom('organisations').where('id', '=', s.orgId)),
  },
  {
    // Only the till's own store: the change log files a store's changes under the store itself.
    entity: 'store',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(
        db.selectFrom('stores').selectAll().where('org_id', '=', s.orgId).where('id', '=', s.storeId),
        'id',
        f,
      ).execute();
      return rows.map((r) => ({ id: r.id, data: toStore(r) }));
    },
    count: (db, s) => counted(db.selectFrom('stores').where('org_id', '=', s.orgId).where('id', '=', s.storeId)),
  },
  {
    entity: 'category',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const q = db
        .selectFrom('categories as c')
        .leftJoin('products as p', (join) => join.onRef('p.org_id', '=', 'c.org_id').onRef('p.category_id', '=', 'c.id'))
        .selectAll('c')
        .select((eb) => eb.fn.count<number>('p.id').as('product_count'))
        .where('c.org_id', '=', s.orgId)
        .groupBy(['c.org_id', 'c.id']);
      const rows = await narrow(q, 'c.id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toCategory(r) }));
    },
    count: (db, s) => counted(db.selectFrom('categories').where('org_id', '=', s.orgId)),
  },
  {
    entity: 'product',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(productsWithStock(db, s.orgId, s.storeId), 'p.id', f).execute();
      // With their packs: a till sells a scanned pack from what it pulled.
      const products = await toProducts(db, rows, s.files);
      return products.map((p) => ({ id: p.id, data: p }));
    },
    count: (db, s) => counted(db.selectFrom('products').where('org_id', '=', s.orgId)),
  },
  {
    // The till's store's level of one product; the id is the product's.
    entity: 'stock',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(
        db
          .selectFrom('product_stock')
          .selectAll('product_stock')
          .select(productUnit('product_stock.org_id', 'product_stock.product_id').as('unit'))
          .where('org_id', '=', s.orgId)
          .where('store_id', '=', s.storeId),
        'product_id',
        f,
      ).execute();
      // In the product's unit, as the product's own `stock` (issue 51).
      return rows.map((r) => ({
        id: r.product_id,
        data: {
          product_id: r.product_id,
          store_id: r.store_id,
          stock: fromCount(Number(r.qty), r.unit),
          // So a till keeps the level as an exact count without its product at hand.
          unit: r.unit,
          updated_at: iso(Number(r.updated_at)),
        },
      }));
    },
    count: (db, s) => counted(db.selectFrom('product_stock').where('org_id', '=', s.orgId).where('store_id', '=', s.storeId)),
  },
  {
    // The till's store's lots (FEFO on the till chooses among them); disposed ones leave it.
    entity: 'batch',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(tillBatches(db, s.orgId, s.storeId), 'b.id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toBatch(r) }));
    },
    count: (db, s) => counted(tillBatches(db, s.orgId, s.storeId).clearSelect()),
  },
  {
    entity: 'customer',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(customersWithBalance(db, s.orgId), 'customers.id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toCustomer(r) }));
    },
    count: (db, s) => counted(db.selectFrom('customers').where('org_id', '=', s.orgId)),
  },
  {
    // The till's store's tabs that still owe (open or partially paid).
    entity: 'credit_tab',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const q = tabsWithNames(db, s.orgId)
        .where('credit_tabs.store_id', '=', s.storeId)
        .where('credit_tabs.status', 'in', OwingTabStatus.options);
      const rows = await narrow(q, 'credit_tabs.id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toCreditTab(r, s.today) }));
    },
    count: (db, s) =>
      counted(
        db
          .selectFrom('credit_tabs')
          .where('org_id', '=', s.orgId)
          .where('store_id', '=', s.storeId)
          .where('status', 'in', OwingTabStatus.options),
      ),
  },
  {
    entity: 'transaction',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      // With whether each took lots or has a fiscal receipt: a plain shop's pull then reads neither table.
      const q = db
        .selectFrom('transactions')
        .selectAll()
        .select(saleExtras)
        .where('org_id', '=', s.orgId)
        .where('store_id', '=', s.storeId)
        .where('created_at', '>=', s.since);
      const rows = await narrow(q, 'id', f).execute();
      return (await withLines(db, rows)).map((t) => ({ id: t.id, data: t }));
    },
    count: (db, s) =>
      counted(
        db.selectFrom('transactions').where('org_id', '=', s.orgId).where('store_id', '=', s.storeId).where('created_at', '>=', s.since),
      ),
  },
  {
    entity: 'notification',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const q = db.selectFrom('notifications').selectAll().where('org_id', '=', s.orgId).where('store_id', '=', s.storeId);
      const rows = await narrow(q, 'id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toNotification(r) }));
    },
    count: (db, s) => counted(db.selectFrom('notifications').where('org_id', '=', s.orgId).where('store_id', '=', s.storeId)),
  },
  {
    // The till's store's live notes, with the yjs state (`ydoc`, base64) its offline edits merge into.
    entity: 'note',
    async rows(db, s, f) {
      if (nothingAsked(f)) return [];
      const rows = await narrow(storeNotes(db, s.orgId, s.storeId).selectAll(), 'id', f).execute();
      return rows.map((r) => ({ id: r.id, data: toSyncNote(r) }));
    },
    count: (db, s) => counted(storeNotes(db, s.orgId, s.storeId)),
  },
];

export const KIND_BY_ENTITY = new Map<string, EntityKind>(KINDS.map((k) => [k.entity, k]));
