/**
 * One sale worked out in memory against the figures of its set (`loadSaleSet`): the rules, prices,
 * receipt number, stock, lots and the rows to write. The same code plans an online sale and each
 * sale of a pushed batch, so a rule exists once.
 *
 * The rules are the shared `checkSale`, `checkDispensing`, `checkCreditLimit` and `allocateFefo`
 * (the till applies the same): online a breach is refused; offline the sale has already happened,
 * so a breach that allows it is recorded as a conflict and the sale is booked (design §4). A sale
 * that is refused changes nothing in the set: the next one is planned as if it never came.
 */
import {
  allocateFefo,
  changeFor,
  checkCreditLimit,
  checkSale,
  checkTender,
  type ErrorCode,
  hasCreditLimit,
  isMobileMoney,
  type LineBatch,
  mergeSaleLines,
  newId,
  type PricingLine,
  priceSale,
  type SaleConflict,
  toBasisPoints,
  toCents,
} from '@duka/shared';
import type { Insertable } from 'kysely';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { CreditTabTable } from '../../../db/tables/credits.table.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import type { TransactionLineRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { hasPermission } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InsufficientStockError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { newCreditTab } from '../../credits/credits.exports.js';
import type { BatchMoveOf } from '../../pharmacy/pharmacy.exports.js';
import { UNALLOCATED_LOT, unallocatedRow, sameLotNumber, checkDispensing } from '../../pharmacy/pharmacy.exports.js';
import { normalisePhone } from '../../../lib/phone.js';
import { bookerOf, pickShift, settleShift } from '../../tenancy/tenancy.exports.js';
import type { SaleRequest, SaleSet } from './sale-inputs.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';

/** A catalogue row as the shared pricing reads it: the till's tender check prices with it too. */
export const pricingOf = (p: ProductRow) => ({
  product_id: p.id,
  name: p.name,
  selling_price: p.selling_price,
  wholesale_price: p.wholesale_price,
  wholesale_min_qty: p.wholesale_min_qty,
  tax_rate: p.tax_rate,
});

/** What any sale rule reports (sale, credit, FEFO, pharmacy): a conflict when an offline sale that broke it is still booked. */
interface Breach {
  code: ErrorCode;
  field: string;
  message: string;
  conflict?: SaleConflict;
}

/** A sale rule's breach as the error the API answers: its code, message and the field at fault. */
function saleError(b: Breach): ServiceError {
  return new ServiceError(b.code, b.message, { errors: [{ code: b.code, field: b.field, message: b.message }] });
}

export interface SalePlan {
  request: SaleRequest;
  row: TransactionRow;
  lines: TransactionLineRow[];
  /** The sale's lines merged per product, as checked. */
  merged: Array<{ index: number; product_id: string; qty: number }>;
  lots: Array<LineBatch & { product_id: string }>;
  moves: BatchMoveOf[];
  /** New batch rows the moves need (an unallocated lot met for the first time). */
  newBatches: BatchRow[];
  stockDelta: Map<string, number>;
  stockAfter: Map<string, number>;
  tab?: Insertable<CreditTabTable>;
  newCustomer?: CustomerRow;
  conflicts: SaleConflict[];
}

/** An earlier sale with the same id: nothing is planned, the recorded sale answers. */
export interface SaleReplay {
  replayed: TransactionRow;
}

export function planSale(ctx: AuthedContext, set: SaleSet, request: SaleRequest): SalePlan | SaleReplay {
  const { input, opts } = request;
  const actor = request.actor ?? ctx.actor;
  const { orgId, storeId, online } = set;
  const conflicts: SaleConflict[] = [];
  /** Online: refuse the sale. Offline: book it and note the conflict, unless even that is refused. */
  const enforce = (breaches: Breach[]) => {
    const refused = online ? breaches[0] : breaches.find((b) => !b.conflict);
    if (refused) throw saleError(refused);
    for (const b of breaches) conflicts.push(b.conflict!);
  };
  if (input.id) {
    const existing = set.sales.get(input.id);
    // A sale id is the organisation's (issue 36): only its own sales are looked at.
    if (existing) return { replayed: existing };
  }
  const now = ctx.clock.now();
  const at = opts.occurredAt ?? now;
  const lines = mergeSaleLines(input.lines);
  const products = set.products;

  let customer: CustomerRow | undefined;
  let newCustomer: CustomerRow | undefined;
  if (input.customer_id) customer = set.customers.get(input.customer_id);
  else if (input.customer_phone) {
    const phone = normalisePhone(input.customer_phone, 'customer_phone');
    customer = set.customersByPhone.get(phone);
    if (!customer) {
      // Created on first sight (written with the sale); the columns the table defaults are as it defaults them.
      newCustomer = {
        id: newId(),
        org_id: orgId,
        name: input.customer_name ?? phone,
        phone,
        email: null,
        notes: null,
        segment: 'New',
        credit_limit: 0,
        is_active: 1,
        total_spend: 0,
        visit_count: 0,
        first_purchase_at: null,
        last_purchase_at: null,
        created_at: now,
        updated_at: now,
      };
      customer = newCustomer;
    }
  }
  const priceMode = input.price_mode ?? 'retail';
  const discountBp = toBasisPoints(input.discount_pct ?? 0);
  enforce(
    checkSale({
      lines: lines.map((l) => {
        const p = products.get(l.product_id);
        return { index: l.index, product_id: l.product_id, product: p && { name: p.name, active: p.is_active === 1 } };
      }),
      business_type: set.org.business_type,
      price_mode: priceMode,
      discount_bp: discountBp,
      may_discount: hasPermission(actor, 'discount'),
      payment_method: input.payment_method,
      customer: input.customer_id && !customer ? 'not_found' : customer ? 'found' : 'none',
    }),
  );
  // The day the sale was made (the till's day for an offline sale): prescriptions and lots are judged by it.
  const today = localDate(at, set.org.timezone);
  enforce(
    checkDispensing({
      outletType: set.store.outlet_type,
      today,
      lines,
      products,
      prescription: input.prescription,
      permitted: set.permitted,
    }),
  );

  const priced = priceSale({
    lines: lines.map<PricingLine>((l) => {
      const p = products.get(l.product_id)!;
      return { product: pricingOf(p), qty: l.qty, unit_price: opts.unitPrices?.get(p.id) };
    }),
    discount_bp: discountBp,
    price_mode: priceMode,
    vat_enabled: set.store.vat_enabled === 1,
  });

  const tendered = input.cash_tendered === undefined ? null : toCents(input.cash_tendered);
  if (opts.changeGiven === undefined) {
    const breach = checkTender({ payment_method: input.payment_method, total: priced.total, cash_tendered: tendered ?? undefined });
    if (breach) throw new ValidationError(breach.field, breach.message);
  }
  const change = tendered === null ? null : (opts.changeGiven ?? changeFor(priced.total, tendered));

  const owed = customer && set.owed.get(customer.id);
  if (input.payment_method === 'Credit' && customer && owed !== undefined && hasCreditLimit(customer.credit_limit)) {
    const breach = checkCreditLimit({ customer_name: customer.name, limit: customer.credit_limit, owed, total: priced.total });
    if (breach) enforce([breach]);
  }

  const saleId = input.id ?? newId();
  const { stockDelta, stockAfter, lots, moves, newBatches } = takeStock(
    set,
    { saleId, userId: actor.userId, today, now, lines, unitsOf: opts.lineBatches },
    enforce,
    conflicts,
  );

  // The shift by the one rule (tenancy): one a till may not use is a conflict, the sale still booked.
  const cashierId = opts.cashierId ?? actor.userId;
  const booker = bookerOf({ userId: cashierId, role: actor.role }, opts.deviceId);
  const shiftId = settleShift(pickShift(set.shifts, opts.shiftId, booker), booker, conflicts);

  const number = set.store.last_number + 1;
  const status = input.payment_method === 'Credit' ? 'credit' : 'paid';
  const row: TransactionRow = {
    id: saleId,
    org_id: orgId,
    store_id: storeId,
    number,
    receipt_number: `${set.store.code}-${String(number).padStart(6, '0')}`,
    client_receipt_number: opts.clientReceiptNumber ?? null,
    status,
    payment_method: input.payment_method,
    payment_reference: input.payment_reference ?? null,
    payment_phone: input.payment_phone ?? null,
    // Checked only where a provider reports payments; never counted as verified on the till's word.
    payment_verification: opts.paymentConfirmed ? 'verified' : set.collects && isMobileMoney(input.payment_method) ? 'unverified' : null,
    price_mode: priceMode,
    subtotal: priced.subtotal,
    discount_pct: discountBp,
    discount: priced.discount,
    tax: priced.tax,
    total: priced.total,
    customer_id: customer?.id ?? null,
    customer_name: customer?.name ?? input.customer_name ?? null,
    customer_phone: customer?.phone ?? null,
    customer_tin: input.customer_tin ?? null,
    till_number: input.till_number ?? null,
    notes: input.notes ?? null,
    cashier_id: cashierId,
    source: opts.source,
    device_id: opts.deviceId ?? null,
    client_created_at: opts.clientCreatedAt ?? null,
    received_at: now,
    cash_tendered: tendered,
    change_given: change,
    refund_reason: null,
    refunded_at: null,
    refunded_by: null,
    void_reason: null,
    voided_at: null,
    voided_by: null,
    shift_id: shiftId,
    reversal_shift_id: null,
    created_at: at,
    updated_at: now,
  };
  const lineRows: TransactionLineRow[] = priced.lines.map((l) => ({
    id: newId(),
    org_id: orgId,
    transaction_id: saleId,
    product_id: l.product_id,
    product_name: l.product_name,
    qty: l.qty,
    unit_price: l.unit_price,
    line_total: l.line_total,
    discount: l.discount,
    tax_rate: l.tax_rate,
    tax: l.tax,
    cost_price: products.get(l.product_id)!.cost_price,
  }));
  const tab =
    status === 'credit'
      ? newCreditTab({ orgId, storeId, customerId: customer!.id, transactionId: saleId, amount: row.total, at }, set.org, now)
      : undefined;

  // Planned: the set moves on to the figures after this sale.
  set.store.last_number = number;
  set.sales.set(saleId, row);
  for (const [id, qty] of stockAfter) set.stock.set(id, qty);
  for (const b of newBatches) set.batches.get(b.product_id)!.push({ ...b });
  for (const m of moves) {
    const held = set.batches.get(m.batch.product_id)!.find((b) => b.id === m.batch.id)!;
    held.qty_on_hand += m.move.qty;
  }
  if (newCustomer) {
    set.customers.set(newCustomer.id, newCustomer);
    set.customersByPhone.set(newCustomer.phone!, newCustomer);
  }
  if (tab && owed !== undefined) set.owed.set(customer!.id, owed + row.total);
  return { request, row, lines: lineRows, merged: lines, lots, moves, newBatches, stockDelta, stockAfter, tab, newCustomer, conflicts };
}

/**
 * The sale's stock: each product's level falls by its line (online it must be there), and a
 * batch-tracked line takes its units from lots, FEFO (the till's lots first on push). Offline,
 * units beyond every lot go on the unallocated lot, and units kept on a lot that is no longer
 * sellable are not stock: the level moves by the sellable units that left.
 */
function takeStock(
  set: SaleSet,
  sale: {
    saleId: string;
    userId: string;
    today: string;
    now: number;
    lines: Array<{ index: number; product_id: string; qty: number }>;
    unitsOf?: Map<string, Array<{ batch_id: string; qty: number }>>;
  },
  enforce: (b: Breach[]) => void,
  conflicts: SaleConflict[],
) {
  const stockDelta = new Map<string, number>();
  const stockAfter = new Map<string, number>();
  const lots: Array<LineBatch & { product_id: string }> = [];
  const moves: BatchMoveOf[] = [];
  const newBatches: BatchRow[] = [];
  const tracked: Array<{ index: number; product_id: string; qty: number }> = [];
  // In product-id order, as the rows were locked: the first short line online is the one named.
  for (const l of [...sale.lines].sort((a, b) => a.product_id.localeCompare(b.product_id))) {
    const p = set.products.get(l.product_id)!;
    if (p.is_service === 1) continue;
    const current = set.stock.get(p.id) ?? 0;
    if (set.online && current < l.qty) throw new InsufficientStockError(p.name, current, `lines.${l.index}.qty`);
    if (p.track_batches === 1) {
      tracked.push(l);
      continue;
    }
    const after = current - l.qty;
    if (after < 0)
      conflicts.push({
        kind: 'oversold',
        product_id: p.id,
        message: `${p.name} sold ${l.qty} with ${current} in stock`,
        detail: { stock_before: current, qty: l.qty, stock_after: after },
      });
    stockDelta.set(p.id, -l.qty);
    stockAfter.set(p.id, after);
  }
  const breaches: Breach[] = [];
  const move = { kind: 'dispensed' as const, transactionId: sale.saleId, userId: sale.userId };
  for (const l of tracked) {
    const p = set.products.get(l.product_id)!;
    const own = set.batches.get(p.id)!;
    const result = allocateFefo({
      index: l.index,
      product: { product_id: p.id, name: p.name },
      qty: l.qty,
      batches: own.map((b) => ({
        batch_id: b.id,
        lot_number: b.lot_number,
        expiry_date: b.expiry_date,
        qty_on_hand: b.qty_on_hand,
        status: b.status,
        received_at: b.received_at,
      })),
      today: sale.today,
      preferred: sale.unitsOf?.get(p.id),
    });
    breaches.push(...result.breaches);
    let sellableOut = 0;
    for (const a of result.allocations) {
      const batch = own.find((b) => b.id === a.batch_id)!;
      // The ledger applies a batch's moves from the row as read; later moves of it chain on.
      moves.push({ batch: set.batchesRead.get(batch.id) ?? batch, move: { ...move, qty: -a.qty } });
      lots.push({ ...a, product_id: p.id });
      if (batch.status === 'sellable') sellableOut += a.qty;
    }
    if (result.shortfall > 0) {
      let unallocated = own.find((b) => sameLotNumber(b.lot_number, UNALLOCATED_LOT));
      if (!unallocated) {
        unallocated = unallocatedRow(set.orgId, set.storeId, p.id, sale.now);
        newBatches.push(unallocated);
      }
      moves.push({ batch: set.batchesRead.get(unallocated.id) ?? unallocated, move: { ...move, qty: -result.shortfall } });
      lots.push({
        batch_id: unallocated.id,
        lot_number: unallocated.lot_number,
        expiry_date: unallocated.expiry_date,
        qty: result.shortfall,
        product_id: p.id,
      });
      sellableOut += result.shortfall;
    }
    const current = set.stock.get(p.id) ?? 0;
    stockDelta.set(p.id, -sellableOut);
    stockAfter.set(p.id, current - sellableOut);
  }
  enforce(breaches);
  return { stockDelta, stockAfter, lots, moves, newBatches };
}
