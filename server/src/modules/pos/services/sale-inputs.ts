/**
 * What a set of sales needs from the database, read once (issue 17): one online sale, or a pushed
 * batch of a till's offline sales. The reads take the locks the writes need, in the order every
 * sale takes them (the store row, then its stock rows in product-id order, then their batches), so
 * the planning in memory (`planSale`) works on figures nobody else can change before the commit.
 */
import { type AddoEntry, type CreateSaleInput, hasCreditLimit, type LineBatchInput, type SaleSource } from '@duka/shared';
import { forUpdate, lockWait, orgIdCheck } from '../../../db/dialect.js';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import type { Actor, ServiceContext } from '../../../lib/context.js';
import { toE164 } from '../../../lib/phone.js';
import { outstandingByCustomer } from '../../credits/credits.exports.js';
import { orgProductsById } from '../../inventory/inventory.exports.js';
import { collectsFor } from '../../payments/payments.exports.js';
import { addoPermitted } from '../../pharmacy/pharmacy.exports.js';
import { insertMissingStockRows } from '../../stock-levels/stock-levels.exports.js';
import { type ShiftCandidate, shiftCandidates } from '../../tenancy/tenancy.exports.js';
import { mainBatchesOf } from '../pos.queries.js';

export interface SaleOptions {
  /** What is recorded as the sale's `source` (how it was rung up). */
  source: SaleSource;
  /** Pushed: the day the sale is booked on (the till's time when its clock was right, else the receipt time). */
  occurredAt?: number;
  /** Pushed: the till's own time for the sale, as sent. */
  clientCreatedAt?: number;
  clientReceiptNumber?: string;
  /**
   * The device that pushed the sale: present, the sale has already happened on a till, so a rule it
   * broke is booked with a conflict where one allows it; absent (POST /pos/sale), any breach refuses it.
   */
  deviceId?: string;
  /** Pushed cash sale: the change the till gave, cents (its tender judged by the caller against the till's total). */
  changeGiven?: number;
  /** Offline: the unit price the till charged per product, cents (reconciled by the caller). */
  unitPrices?: Map<string, number>;
  /** A push at checkout the provider confirmed paid: the sale is booked verified, never waiting for a match. */
  paymentConfirmed?: boolean;
  /** Offline: the member of the organisation who rang it up (checked by the caller); default the actor. */
  cashierId?: string;
  /** Offline: the batches the till took each product's units from (kept when they still hold them). */
  lineBatches?: Map<string, LineBatchInput[]>;
  /** Offline: the till's open shift when it made the sale (used when it is this store's; else the cashier's open shift). */
  shiftId?: string;
}

export interface SaleRequest {
  input: CreateSaleInput;
  opts: SaleOptions;
  /** Who asked for this sale, when several requests' sales share one transaction (sell-online.ts); default the transaction's actor. */
  actor?: Actor;
}

/** The figures the sales are planned against; `planSale` moves them on as each sale is planned. */
export interface SaleSet {
  orgId: string;
  storeId: string;
  online: boolean;
  /** `fiscal`: 1 when the store's fiscal device is switched on (its sales are numbered for TRA). */
  store: { code: string; vat_enabled: number; outlet_type: string | null; last_number: number; fiscal: number };
  org: { business_type: string; timezone: string; credit_terms_days: number };
  /** The store takes mobile money through a collection account: its mobile-money sales are checked against the provider's reports. */
  collects: boolean;
  products: Map<string, ProductRow>;
  /** Sales by id: those already recorded (any organisation) and those planned in this set. */
  sales: Map<string, TransactionRow>;
  customers: Map<string, CustomerRow>;
  customersByPhone: Map<string, CustomerRow>;
  /** Cents owed, per customer with a credit limit who buys on credit in this set. */
  owed: Map<string, number>;
  /** Stock per product (every stock product of the set, 0 for a row created at load). */
  stock: Map<string, number>;
  /** Main batch rows per batch-tracked product, as planned so far. */
  batches: Map<string, BatchRow[]>;
  /** Each batch as read (the ledger applies the moves from there). */
  batchesRead: Map<string, BatchRow>;
  permitted: AddoEntry[];
  /** The shifts the sales may belong to: those named and those open for their cashiers (issue 37). */
  shifts: ShiftCandidate[];
}

export async function loadSaleSet(
  tx: ServiceContext,
  scope: { orgId: string; storeId: string; online: boolean },
  requests: SaleRequest[],
  products?: Map<string, ProductRow>,
): Promise<SaleSet> {
  const { orgId, storeId } = scope;
  const ids = requests.flatMap((r) => (r.input.id ? [r.input.id] : []));
  const productIds = [...new Set(requests.flatMap((r) => r.input.lines.map((l) => l.product_id)))];
  const shiftsWanted = {
    ids: [...new Set(requests.flatMap((r) => (r.opts.shiftId ? [r.opts.shiftId] : [])))],
    cashiers: [...new Set(requests.map((r) => cashierOf(tx, r)))],
  };
  const [existing, org, catalogue, shifts] = await Promise.all([
    // By the ids' key whatever SQLite's statistics say of the (org_id, …) indexes: orgIdCheck.
    ids.length
      ? tx.db
          .selectFrom('transactions')
          .selectAll()
          .where(orgIdCheck(tx.dialect, 'org_id', orgId))
          .where('id', 'in', ids)
          .execute()
      : [],
    tx.db
      .selectFrom('organisations')
      .select(['business_type', 'timezone', 'credit_terms_days'])
      .select(collectsFor(orgId, storeId).as('collects'))
      .where('id', '=', orgId)
      .executeTakeFirstOrThrow(),
    products ?? orgProductsById(tx, orgId, productIds),
    shiftCandidates(tx.db, scope, shiftsWanted),
  ]);
  const customers = await readCustomers(tx, orgId, requests);
  const creditors = new Set<string>();
  for (const r of requests) {
    const c = r.input.customer_id ? customers.byId.get(r.input.customer_id) : customers.byPhone.get(phoneOf(r.input) ?? '');
    if (r.input.payment_method === 'Credit' && c && hasCreditLimit(c.credit_limit)) creditors.add(c.id);
  }
  const owed = await outstandingByCustomer(tx.db, orgId, [...creditors]);

  // Locks: the store row first (its receipt numbers), then stock rows in product-id order. How
  // long a sale waits for them is what bounds one store's sales on Postgres (COUNT_STATEMENTS shows it).
  const stocked = [...catalogue.values()]
    .filter((p) => p.is_service !== 1)
    .map((p) => p.id)
    .sort();
  const [store, stock] = await lockWait(tx.dialect, async () => {
    const row = await forUpdate(
      tx.dialect,
      tx.db
        .selectFrom('stores')
        .select(['code', 'vat_enabled', 'outlet_type', 'last_number', 'fiscal'])
        .where('id', '=', storeId)
        .where('org_id', '=', orgId),
    ).executeTakeFirstOrThrow();
    return [row, await lockStockRows(tx, orgId, storeId, stocked)] as const;
  });
  const tracked = stocked.filter((id) => catalogue.get(id)!.track_batches === 1);
  const batchRows = tracked.length ? await mainBatchesOf(tx.db, scope, tracked) : [];
  const batches = new Map<string, BatchRow[]>(tracked.map((id) => [id, []]));
  for (const b of batchRows) batches.get(b.product_id)!.push({ ...b });
  const permitted = store.outlet_type === 'addo' ? await addoPermitted(tx, catalogue.values()) : [];

  return {
    ...scope,
    store,
    org: { business_type: org.business_type, timezone: org.timezone, credit_terms_days: org.credit_terms_days },
    // SQLite answers exists() with 0 or 1, Postgres with a boolean.
    collects: Boolean(org.collects),
    products: catalogue,
    sales: new Map(existing.map((t) => [t.id, t])),
    customers: customers.byId,
    customersByPhone: customers.byPhone,
    owed,
    stock,
    batches,
    batchesRead: new Map(batchRows.map((b) => [b.id, b])),
    permitted,
    shifts,
  };
}

/** Who a sale is booked to: the till's pusher offline, else the request's own actor. */
export function cashierOf(tx: ServiceContext, r: SaleRequest): string {
  return r.opts.cashierId ?? (r.actor ?? tx.actor!).userId;
}

/** The customer's phone as stored, or undefined when there is none or it is not a phone number (the plan refuses it). */
function phoneOf(input: CreateSaleInput): string | undefined {
  return input.customer_id || !input.customer_phone ? undefined : (toE164(input.customer_phone) ?? undefined);
}

async function readCustomers(tx: ServiceContext, orgId: string, requests: SaleRequest[]) {
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
  return new Map(rows.map((r) => [r.product_id, Number(r.qty)]));
}
