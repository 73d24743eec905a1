/**
 * What a set of sales needs from the database, read once (issue 17): one online sale, or a pushed
 * batch of a till's offline sales. The reads take the locks the writes need, in the order every
 * sale takes them (the store row, then its stock rows in product-id order, then their batches), so
 * the planning in memory (`planSale`) works on figures nobody else can change before the commit.
 * Each read below is its own function, called in the order the statements run (the statement log,
 * test/pos/sale-statements.test.ts, holds them to it).
 */
import { type CreateSaleInput, hasCreditLimit, methodsOf } from '@duka/shared';
import { forUpdate, lockWait, orgIdCheck } from '../../../db/dialect.js';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { toE164 } from '../../../lib/phone.js';
import { outstandingByCustomer } from '../../credits/credits.exports.js';
import { orgPacksById, orgProductsById } from '../../inventory/inventory.exports.js';
import { addoPermitted } from '../../pharmacy/pharmacy.exports.js';
import { insertMissingStockRows } from '../../stock-levels/stock-levels.exports.js';
import { shiftCandidates } from '../../tenancy/tenancy.exports.js';
import { mainBatchesOf, saleStoreRow } from '../pos.queries.js';
import { withDeferredStock } from './deferred-stock.js';
import { readScaleLabels } from './scale-labels.js';
import type { SaleRequest, SaleSet } from './sale-set.js';

type Scope = { orgId: string; storeId: string; online: boolean };
type Customers = { byId: Map<string, CustomerRow>; byPhone: Map<string, CustomerRow> };

export async function loadSaleSet(
  tx: ServiceContext,
  scope: Scope,
  requests: SaleRequest[],
  products?: Map<string, ProductRow>,
): Promise<SaleSet> {
  const { orgId } = scope;
  const labels = await readScaleLabels(tx, orgId, requests);
  const { existing, catalogue, shifts, packs } = await readUnlocked(tx, scope, requests, products);
  for (const p of labels.byCode.values()) if (!catalogue.has(p.id)) catalogue.set(p.id, p);
  const customers = await readCustomers(tx, orgId, requests);
  const owed = await outstandingByCustomer(tx.db, orgId, creditorsOf(requests, customers));
  const { store, org, stock, stocked } = await lockStoreAndStock(tx, scope, catalogue);
  const { batches, batchRows } = await readLots(tx, scope, catalogue, stocked);
  const permitted = store.outlet_type === 'addo' ? await addoPermitted(tx, catalogue.values()) : [];

  return {
    ...scope,
    store,
    org: { business_type: org.business_type, timezone: org.timezone, credit_terms_days: org.credit_terms_days },
    // SQLite answers exists() with 0 or 1, Postgres with a boolean.
    collects: Boolean(org.collects),
    products: catalogue,
    packs,
    sales: new Map(existing.map((t) => [t.id, t])),
    customers: customers.byId,
    customersByPhone: customers.byPhone,
    owed,
    stock,
    batches,
    batchesRead: new Map(batchRows.map((b) => [b.id, b])),
    permitted,
    shifts,
    labels,
  };
}

/**
 * What needs no lock, read side by side before any is taken: the sales already recorded with these
 * ids (a replayed push), the catalogue (unless the caller read it), the shifts and the packs the
 * lines name. The organisation's settings come with the store's lock (`lockStoreAndStock`).
 */
async function readUnlocked(tx: ServiceContext, scope: Scope, requests: SaleRequest[], products?: Map<string, ProductRow>) {
  const { orgId } = scope;
  const ids = requests.flatMap((r) => (r.input.id ? [r.input.id] : []));
  const productIds = [...new Set(requests.flatMap((r) => r.input.lines.flatMap((l) => l.product_id ?? [])))];
  const packIds = [...new Set(requests.flatMap((r) => r.input.lines.flatMap((l) => (l.pack_id ? [l.pack_id] : []))))];
  const shiftsWanted = {
    ids: [...new Set(requests.flatMap((r) => (r.opts.shiftId ? [r.opts.shiftId] : [])))],
    cashiers: [...new Set(requests.map((r) => cashierOf(tx, r)))],
  };
  const [existing, catalogue, shifts, packs] = await Promise.all([
    // By the ids' key whatever SQLite's statistics say of the (org_id, …) indexes: orgIdCheck.
    ids.length
      ? tx.db
          .selectFrom('transactions')
          .selectAll()
          .where(orgIdCheck(tx.dialect, 'org_id', orgId))
          .where('id', 'in', ids)
          .execute()
      : [],
    // A copy: the set adds the products its scale labels name.
    products ? new Map(products) : orgProductsById(tx, orgId, productIds),
    shiftCandidates(tx.db, scope, shiftsWanted),
    // Only a sale by the pack reads packs: every other sale runs the statements it always did.
    orgPacksById(tx.db, orgId, packIds),
  ]);
  return { existing, catalogue, shifts, packs };
}

/** Who a sale is booked to: the till's pusher offline, else the request's own actor. */
function cashierOf(tx: ServiceContext, r: SaleRequest): string {
  return r.opts.cashierId ?? (r.actor ?? tx.actor!).userId;
}

/** The customer's phone as stored, or undefined when there is none or it is not a phone number (the plan refuses it). */
function phoneOf(input: CreateSaleInput): string | undefined {
  return input.customer_id || !input.customer_phone ? undefined : (toE164(input.customer_phone) ?? undefined);
}

/** The sales' customers, by id and by phone: one read for the whole set. */
async function readCustomers(tx: ServiceContext, orgId: string, requests: SaleRequest[]): Promise<Customers> {
  const ids = [...new Set(requests.flatMap((r) => (r.input.customer_id ? [r.input.customer_id] : [])))];
  const phones = [...new Set(requests.flatMap((r) => phoneOf(r.input) ?? []))];
  const rows =
    ids.length || phones.length
      ? await tx.db
          .selectFrom('customers')
          .selectAll()
          .where('org_id', '=', orgId)
          .where((eb) => eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(phones.length ? [eb('phone', 'in', phones)] : [])]))
          .execute()
      : [];
  return { byId: new Map(rows.map((c) => [c.id, c])), byPhone: new Map(rows.flatMap((c) => (c.phone ? [[c.phone, c] as const] : []))) };
}

/** The customers with a credit limit who buy on credit in this set: only their debt is read. */
function creditorsOf(requests: SaleRequest[], customers: Customers): string[] {
  const creditors = new Set<string>();
  for (const r of requests) {
    const c = r.input.customer_id ? customers.byId.get(r.input.customer_id) : customers.byPhone.get(phoneOf(r.input) ?? '');
    if (methodsOf(r.input).includes('Credit') && c && hasCreditLimit(c.credit_limit)) creditors.add(c.id);
  }
  return [...creditors];
}

/**
 * Locks: the store row first (its receipt numbers), then stock rows in product-id order. How long a
 * sale waits for them is what bounds one store's sales on Postgres (COUNT_STATEMENTS shows it).
 * The organisation's settings ride on the store's locking read (`saleStoreRow`, issue 53).
 */
async function lockStoreAndStock(tx: ServiceContext, scope: Scope, catalogue: Map<string, ProductRow>) {
  const { orgId, storeId } = scope;
  const stocked = [...catalogue.values()]
    .filter((p) => p.is_service !== 1)
    .map((p) => p.id)
    .sort();
  const [store, stock] = await lockWait(tx.dialect, async () => {
    const row = await forUpdate(tx.dialect, saleStoreRow(tx.db, orgId, storeId)).executeTakeFirstOrThrow();
    return [row, await lockStockRows(tx, orgId, storeId, stocked)] as const;
  });
  const { business_type, timezone, credit_terms_days, collects, ...own } = store;
  return { store: own, org: { business_type, timezone, credit_terms_days, collects }, stock, stocked };
}

/** Lock and read the stock rows (creating missing ones at 0 first, so every row is locked). */
async function lockStockRows(tx: ServiceContext, orgId: string, storeId: string, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const read = () =>
    forUpdate(
      tx.dialect,
      tx.db
        .selectFrom('product_stock')
        .select(['product_id', 'qty'])
        .where('org_id', '=', orgId)
        .where('store_id', '=', storeId)
        .where('product_id', 'in', productIds)
        .orderBy('product_id'),
    ).execute();
  let rows = await read();
  if (rows.length < productIds.length) {
    const have = new Set(rows.map((r) => r.product_id));
    const now = tx.clock.now();
    await insertMissingStockRows(
      tx.db,
      { orgId, storeId },
      productIds.filter((id) => !have.has(id)),
      now,
    );
    rows = await read();
  }
  return withDeferredStock(tx, { orgId, storeId }, new Map(rows.map((r) => [r.product_id, Number(r.qty)])));
}

/**
 * The main lots of the batch-tracked products, read after their stock rows are locked (so no other
 * sale moves them meanwhile): a working copy per product that planning moves on, and each as read.
 */
async function readLots(tx: ServiceContext, scope: Scope, catalogue: Map<string, ProductRow>, stocked: string[]) {
  const tracked = stocked.filter((id) => catalogue.get(id)!.track_batches === 1);
  const batchRows = tracked.length ? await mainBatchesOf(tx.db, scope, tracked) : [];
  const batches = new Map<string, BatchRow[]>(tracked.map((id) => [id, []]));
  for (const b of batchRows) batches.get(b.product_id)!.push({ ...b });
  return { batches, batchRows };
}
