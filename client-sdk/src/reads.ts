/**
 * Local reads: everything a till shows comes from the replica, online or not. Products carry the
 * replica's stock level (moved by this till's own sales until the server's arrives).
 */
import { sql } from 'kysely';
import {
  type AddoMedicine,
  type Batch,
  type Category,
  type CreditTab,
  type Customer,
  decodeScaleBarcode,
  fromCents,
  fromCount,
  isWordStartTerm,
  looksLikeScaleLabel,
  type Notification,
  type Organisation,
  type Product,
  type ScannedProduct,
  type Store,
  scaleLine,
  stockInPacks,
  toCents,
} from '@duka/shared';
import { TillError } from './errors.js';
import type { TillConflict } from './events.js';
import type { LocalExec } from './local/db.js';
import { compiledOnce } from './local/compiled.js';
import { getMeta, type MetaValues } from './local/meta.js';
import { parseData } from './replica/apply.js';
import { type QueuedMutation, toQueued } from './queue.js';
import type { ListOptions, Receipt } from './types.js';

const limitOf = (o?: ListOptions) => Math.min(Math.max(o?.limit ?? 50, 1), 1000);
/** Case-insensitive (ASCII, as SQLite's lower()) substring test on a column. */
const contains = (column: string, term: string) => sql<boolean>`instr(lower(${sql.ref(column)}), ${term.toLowerCase()}) > 0`;
/**
 * A word of the column starts with `term` (letters and digits only: isWordStartTerm), any case
 * (ASCII, as `contains`): the column starts with it, or it follows a character that is not an
 * ASCII letter or digit. The server reads the same rule from its words index (docs/inventory.md).
 */
const wordStarts = (column: string, term: string) => {
  const lowered = sql`lower(${sql.ref(column)})`;
  const t = term.toLowerCase();
  return sql<boolean>`(${lowered} glob ${`${t}*`} or ${lowered} glob ${`*[^a-z0-9]${t}*`})`;
};

export function productFrom(row: { data: string; qty: number | null }): Product {
  const p = parseData<Product>(row.data);
  // The replica keeps counts (issue 51); a product answers its level in its unit, as the server's.
  const stock = p.is_service || row.qty === null ? p.stock : fromCount(row.qty, p.unit ?? 'piece');
  // Said in packs from this level, not the server's last word (a replica written before it has no packs field).
  const unit = p.unit ?? 'piece';
  return { ...p, stock, is_low_stock: !p.is_service && stock <= p.reorder_point, stock_in_packs: stockInPacks({ ...p, stock, unit }) };
}

const productRows = (db: LocalExec) =>
  db.selectFrom('products as p').leftJoin('stock as s', 's.product_id', 'p.id').select(['p.data', 's.qty']);

export async function productById(db: LocalExec, id: string): Promise<Product | null> {
  const row = await productRows(db).where('p.id', '=', id).executeTakeFirst();
  return row ? productFrom(row) : null;
}

/** Several products by id in one read (a sale's lines). */
export async function productsByIds(db: LocalExec, ids: string[]): Promise<Map<string, Product>> {
  if (!ids.length) return new Map();
  const rows = await productRows(db).where('p.id', 'in', ids).execute();
  return new Map(rows.map((r) => productFrom(r)).map((p) => [p.id, p]));
}

const shopRead = compiledOnce([], (db) =>
  db
    .selectFrom('rows')
    .select(['entity as key', 'data'])
    .where('entity', 'in', ['organisation', 'store'])
    .unionAll(db.selectFrom('meta').select(['key', 'value as data']).where('key', 'in', ['till_code', 'user'])),
);

/**
 * The organisation and store rows with the till's code and user (from `meta`), in one read: every
 * sale needs all four, so they cost one statement, not two.
 */
export async function shopRows(db: LocalExec): Promise<ShopRows> {
  const { rows } = await shopRead(db, {});
  return shopFrom(rows);
}

export interface ShopRows {
  organisation: Organisation | null;
  store: Store | null;
  tillCode: string | undefined;
  user: MetaValues['user'] | undefined;
}

/**
 * The shop's rows as last parsed, by key, with the JSON they came from. Every sale reads them (the
 * organisation and store are a few KB of JSON) and they change only with a pull, so a row is parsed
 * again only when its text differs. Shared by every read since: frozen, never changed in place.
 */
const shopParsed = new Map<string, { text: string; value: unknown }>();

function parsedShopRow<T>(key: string, text: string): T {
  const last = shopParsed.get(key);
  if (last?.text === text) return last.value as T;
  const value = Object.freeze(parseData<T>(text));
  shopParsed.set(key, { text, value });
  return value;
}

/** The shop from its rows as `shopRead` answers them (`key`: the entity or meta key; `data`: its JSON). */
export function shopFrom(rows: ReadonlyArray<{ key: string; data: string }>): ShopRows {
  const found = new Map(rows.map((r) => [r.key, r.data]));
  const parsed = <T>(key: string) => (found.has(key) ? parsedShopRow<T>(key, found.get(key)!) : undefined);
  return {
    organisation: parsed<Organisation>('organisation') ?? null,
    store: parsed<Store>('store') ?? null,
    tillCode: parsed<string>('till_code'),
    user: parsed<MetaValues['user']>('user'),
  };
}

/**
 * By barcode, then by SKU, then as one of the organisation's shop-scale labels (as the server's
 * barcode route does, offline): a label answers its product with `scale_label`, what it sells. A
 * label whose check digit is wrong, or that cannot sell its product, is refused (VALIDATION_ERROR).
 */
export async function productByCode(db: LocalExec, code: string): Promise<ScannedProduct | null> {
  const c = code.trim();
  const row =
    (await productRows(db).where('p.barcode', '=', c).executeTakeFirst()) ??
    (await productRows(db).where('p.sku', '=', c).executeTakeFirst());
  if (row) return { ...productFrom(row), scanned_pack: null };
  // A pack's barcode sells that pack (issue 51): its product carries its packs.
  const pack = await productRows(db)
    .innerJoin(sql<{ value: string }>`json_each(p.data, '$.packs')`.as('k'), (j) => j.onTrue())
    .where(sql<string>`json_extract(k.value, '$.barcode')`, '=', c)
    .executeTakeFirst();
  if (pack) {
    const product = productFrom(pack);
    return { ...product, scanned_pack: product.packs.find((k) => k.barcode === c)! };
  }
  const config = (await organisation(db))?.scale_barcodes;
  if (!looksLikeScaleLabel(c, config)) return null;
  const label = decodeScaleBarcode(c, config);
  if (!label)
    throw new TillError('VALIDATION_ERROR', 'code is not a readable scale label (its check digit is wrong): scan it again', 'code');
  const found = await productRows(db).where(sql<string>`json_extract(p.data, '$.scale_code')`, '=', label.item_code).executeTakeFirst();
  if (!found) return null;
  const product = productFrom(found);
  const sold = scaleLine(label, { unit: product.unit, unitPrice: toCents(product.selling_price) });
  if ('fault' in sold) throw new TillError('VALIDATION_ERROR', `code ${sold.fault}`, 'code');
  return {
    ...product,
    scanned_pack: null,
    scale_label: { barcode: c, qty: sold.qty, amount: sold.amount === undefined ? null : fromCents(sold.amount) },
  };
}

export interface ProductSearch extends ListOptions {
  category_id?: string;
  /** Include inactive products (default false). */
  include_inactive?: boolean;
}

/**
 * Name, SKU or a medicine's generic name contains `query` (any case), ordered by name; a query of 1
 * or 2 letters or digits finds a word starting with it, as the server's search (isWordStartTerm).
 */
export async function searchProducts(db: LocalExec, query: string, o: ProductSearch = {}): Promise<Product[]> {
  let q = productRows(db);
  const term = query.trim();
  if (term) {
    const match = isWordStartTerm(term) ? wordStarts : contains;
    q = q.where((eb) => eb.or([match('p.name', term), match('p.sku', term), match('p.generic_name', term)]));
  }
  if (o.category_id) q = q.where('p.category_id', '=', o.category_id);
  if (!o.include_inactive) q = q.where('p.is_active', '=', 1);
  const rows = await q.orderBy('p.name').orderBy('p.id').limit(limitOf(o)).execute();
  return rows.map(productFrom);
}

export async function categories(db: LocalExec): Promise<Category[]> {
  const rows = await db.selectFrom('categories').select('data').orderBy('sort_order').orderBy('name').execute();
  return rows.map((r) => parseData<Category>(r.data));
}

/** The till's store's level of a product (null when the replica has none, e.g. a service). */
export async function stockOf(db: LocalExec, productId: string): Promise<number | null> {
  const row = await productRows(db).where('s.product_id', '=', productId).executeTakeFirst();
  return row && row.qty !== null ? fromCount(row.qty, parseData<Product>(row.data).unit ?? 'piece') : null;
}

export interface CustomerSearch extends ListOptions {
  /** Name contains, or phone contains (digits). */
  search?: string;
  /** Only customers who owe something. */
  owing?: boolean;
}

export async function customers(db: LocalExec, o: CustomerSearch = {}): Promise<Customer[]> {
  let q = db.selectFrom('customers').select('data');
  const term = o.search?.trim();
  if (term) {
    const digits = term.replace(/\D/g, '').replace(/^0/, '');
    q = q.where((eb) => eb.or([contains('name', term), ...(digits.length >= 3 ? [contains('phone', digits)] : [])]));
  }
  if (o.owing) q = q.where('outstanding', '>', 0);
  const rows = await q
    .orderBy(o.owing ? 'outstanding' : 'name', o.owing ? 'desc' : 'asc')
    .orderBy('id')
    .limit(limitOf(o))
    .execute();
  return rows.map((r) => parseData<Customer>(r.data));
}

export async function customerById(db: LocalExec, id: string): Promise<Customer | null> {
  const row = await db.selectFrom('customers').select('data').where('id', '=', id).executeTakeFirst();
  return row ? parseData<Customer>(row.data) : null;
}

/** Open and partly paid tabs of the till's store, oldest first. */
export async function creditTabs(db: LocalExec, customerId?: string): Promise<CreditTab[]> {
  let q = db.selectFrom('credit_tabs').select('data');
  if (customerId) q = q.where('customer_id', '=', customerId);
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => parseData<CreditTab>(r.data));
}

const receiptFrom = (r: { data: string; sync_state: Receipt['sync_state'] }): Receipt => ({
  ...parseData<Receipt>(r.data),
  sync_state: r.sync_state,
});

export async function transactionById(db: LocalExec, id: string): Promise<Receipt | null> {
  const row = await db.selectFrom('transactions').select(['data', 'sync_state']).where('id', '=', id).executeTakeFirst();
  return row ? receiptFrom(row) : null;
}

export interface TransactionQuery extends ListOptions {
  status?: Receipt['status'];
  sync_state?: Receipt['sync_state'];
  /** Part of a receipt number: the till's temporary one (MAD-T1-5) or the store's (MAD-000005), any case. */
  search?: string;
}

/** The store's sales of the last 30 days and the till's own, newest first. */
export async function recentTransactions(db: LocalExec, o: TransactionQuery = {}): Promise<Receipt[]> {
  let q = db.selectFrom('transactions').select(['data', 'sync_state']);
  if (o.status) q = q.where('status', '=', o.status);
  if (o.sync_state) q = q.where('sync_state', '=', o.sync_state);
  const search = o.search?.trim().toUpperCase();
  if (search) {
    // `%` and `_` typed by the cashier are literal, not wildcards.
    const pattern = `%${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    q = q.where(
      sql<boolean>`(upper(client_receipt_number) like ${pattern} escape '!' or upper(receipt_number) like ${pattern} escape '!')`,
    );
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitOf(o)).execute();
  return rows.map(receiptFrom);
}

export async function notifications(db: LocalExec, o: ListOptions & { unread?: boolean } = {}): Promise<Notification[]> {
  let q = db.selectFrom('notifications').select('data');
  if (o.unread) q = q.where('is_read', '=', 0);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitOf(o)).execute();
  return rows.map((r) => parseData<Notification>(r.data));
}

export async function conflicts(db: LocalExec, o: ListOptions = {}): Promise<TillConflict[]> {
  const rows = await db.selectFrom('conflicts').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limitOf(o)).execute();
  return rows.map((r) => ({ ...r, type: r.type as TillConflict['type'], kind: r.kind as TillConflict['kind'] }));
}

/** Mutations the server refused, oldest first, with its error. */
export async function rejected(db: LocalExec): Promise<QueuedMutation[]> {
  const rows = await db.selectFrom('queue').selectAll().where('state', '=', 'rejected').orderBy('seq').execute();
  return rows.map(toQueued);
}

export async function organisation(db: LocalExec): Promise<Organisation | null> {
  const row = await db.selectFrom('rows').select('data').where('entity', '=', 'organisation').executeTakeFirst();
  return row ? parseData<Organisation>(row.data) : null;
}

export async function store(db: LocalExec): Promise<Store | null> {
  const row = await db.selectFrom('rows').select('data').where('entity', '=', 'store').executeTakeFirst();
  return row ? parseData<Store>(row.data) : null;
}

/** The till's copy of the ADDO-permitted list, by generic name; `version` undefined: never fetched. */
export async function addoList(db: LocalExec): Promise<{ version: number | undefined; entries: AddoMedicine[] }> {
  const version = await getMeta(db, 'addo_list_version');
  const rows = await db.selectFrom('addo_list').select('data').execute();
  const entries = rows.map((r) => parseData<AddoMedicine>(r.data));
  entries.sort(
    (a, b) =>
      a.generic_name.localeCompare(b.generic_name) || a.strength.localeCompare(b.strength) || a.dosage_form.localeCompare(b.dosage_form),
  );
  return { version, entries };
}

/** The entries of the till's ADDO list with these `addoMatchKey`s. */
export async function addoEntries(db: LocalExec, keys: string[]): Promise<AddoMedicine[]> {
  if (!keys.length) return [];
  const rows = await db.selectFrom('addo_list').select('data').where('match_key', 'in', keys).execute();
  return rows.map((r) => parseData<AddoMedicine>(r.data));
}

/**
 * A batch with the replica's quantity (moved by this till's own sales until the server's row
 * arrives). The replica keeps it in counts (issue 51: millilitres of a litre product), as the
 * server does; `batches` answers it in the product's unit, as the API does.
 */
const batchFrom = (r: { data: string; qty_on_hand: number }): Batch => {
  const b = parseData<Batch>(r.data);
  return { ...b, qty_on_hand: fromCount(r.qty_on_hand, b.unit ?? 'piece') };
};

/** The store's batches as the till knows them, of one product or all, by expiry then lot. */
export async function batches(db: LocalExec, o: { product_id?: string; status?: Batch['status'] } = {}): Promise<Batch[]> {
  let q = db.selectFrom('batches').select(['data', 'qty_on_hand']);
  if (o.product_id) q = q.where('product_id', '=', o.product_id);
  if (o.status) q = q.where('status', '=', o.status);
  const rows = await q.orderBy('expiry_date').orderBy('received_at').orderBy('lot_number').orderBy('id').execute();
  return rows.map(batchFrom);
}

/** Several products' batches in one read (a sale's lines), any status, `qty_on_hand` in counts (FEFO's). */
export async function batchCountsOf(db: LocalExec, productIds: string[]): Promise<Map<string, Batch[]>> {
  const out = new Map<string, Batch[]>(productIds.map((id) => [id, []]));
  if (!productIds.length) return out;
  const rows = await db.selectFrom('batches').select(['product_id', 'data', 'qty_on_hand']).where('product_id', 'in', productIds).execute();
  for (const r of rows) out.get(r.product_id)?.push({ ...parseData<Batch>(r.data), qty_on_hand: r.qty_on_hand });
  return out;
}
