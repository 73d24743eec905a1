/**
 * The rows a planned sale writes (the transaction, its lines, a credit tab), put together from what
 * the stages worked out, and the set moved on to the figures after the sale, so the next sale of a
 * batch is planned as if this one were already written.
 */
import { isMobileMoney, newId, type PricedSale } from '@duka/shared';
import type { TransactionLineRow, TransactionPaymentRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { newCreditTab } from '../../credits/credits.exports.js';
import type { SaleShift } from './assign-shift.js';
import type { SaleNumber } from './number-sale.js';
import type { ResolvedSale } from './resolve-lines.js';
import type { SaleDraft, SalePlan } from './sale-plan.js';
import type { Tender } from './settle-tender.js';
import type { StockTaken } from './take-stock.js';

/** What the stages worked out for one sale. */
export interface StagesDone {
  saleId: string;
  resolved: ResolvedSale;
  priced: PricedSale;
  tender: Tender;
  stock: StockTaken;
  shift: SaleShift;
  number: SaleNumber;
}

export function planOf(sale: SaleDraft, done: StagesDone): SalePlan {
  const { set, request } = sale;
  const row = transactionRow(sale, done);
  const { customer, newCustomer, lines: merged } = done.resolved;
  const lines = lineRows(sale, done);
  // The credit part opens the tab, for its amount only.
  const credit = done.tender.parts.find((p) => p.method === 'Credit');
  const tab = credit
    ? newCreditTab(
        { orgId: set.orgId, storeId: set.storeId, customerId: customer!.id, transactionId: row.id, amount: credit.amount, at: sale.at },
        set.org,
        sale.now,
      )
    : undefined;
  const payments = paymentRows(row, done.tender);
  return { request, row, lines, payments, merged, ...done.stock, tab, newCustomer, conflicts: sale.conflicts };
}

const paidPart = (tender: Tender) => tender.parts.find((p) => isMobileMoney(p.method)) ?? tender.parts.find((p) => p.reference);

/** One row per part; the mobile-money part carries the sale's verification. */
function paymentRows(row: TransactionRow, tender: Tender): TransactionPaymentRow[] {
  return tender.parts.map((p, i) => ({
    org_id: row.org_id,
    transaction_id: row.id,
    seq: i + 1,
    method: p.method,
    amount: p.amount,
    reference: p.reference,
    phone: p.phone,
    verification: isMobileMoney(p.method) ? tender.verification : null,
    mirrored: tender.mirrored[i]!,
  }));
}

function transactionRow(sale: SaleDraft, done: StagesDone): TransactionRow {
  const { input, opts } = sale.request;
  const { priced, tender, resolved } = done;
  // The columns in the table's order: a batch's insert names them as its first row does.
  return {
    id: done.saleId,
    org_id: sale.set.orgId,
    store_id: sale.set.storeId,
    number: done.number.number,
    receipt_number: done.number.receiptNumber,
    client_receipt_number: opts.clientReceiptNumber ?? null,
    status: tender.status,
    payment_method: tender.method,
    // A split sale's are its mobile-money part's (else its first part's): what matching and old clients read.
    payment_reference: input.payments ? (paidPart(tender)?.reference ?? null) : (input.payment_reference ?? null),
    payment_phone: input.payments ? (paidPart(tender)?.phone ?? null) : (input.payment_phone ?? null),
    payment_verification: tender.verification,
    price_mode: resolved.priceMode,
    subtotal: priced.subtotal,
    discount_pct: resolved.discountBp,
    discount: priced.discount,
    tax: priced.tax,
    total: priced.total,
    customer_id: resolved.customer?.id ?? null,
    customer_name: resolved.customer?.name ?? input.customer_name ?? null,
    customer_phone: resolved.customer?.phone ?? null,
    customer_tin: input.customer_tin ?? null,
    ...tillColumns(sale, done),
  };
}

/** Who sold it, where and when, and the columns a refund or a void fills later. */
function tillColumns(sale: SaleDraft, done: StagesDone) {
  const { input, opts } = sale.request;
  return {
    till_number: input.till_number ?? null,
    notes: input.notes ?? null,
    cashier_id: done.shift.cashierId,
    source: opts.source,
    device_id: opts.deviceId ?? null,
    client_created_at: opts.clientCreatedAt ?? null,
    received_at: sale.now,
    cash_tendered: done.tender.tendered,
    change_given: done.tender.change,
    refund_reason: null,
    refunded_at: null,
    refunded_by: null,
    void_reason: null,
    voided_at: null,
    voided_by: null,
    shift_id: done.shift.shiftId,
    reversal_shift_id: null,
    created_at: sale.at,
    updated_at: sale.now,
    // Refunds of part add to these (migration 0045); written with the row so that it answers whole.
    part_refunds: 0,
    refunded_total: 0,
    refunded_tax: 0,
  };
}

function lineRows(sale: SaleDraft, done: StagesDone): TransactionLineRow[] {
  return done.priced.lines.map((l) => ({
    id: newId(),
    org_id: sale.set.orgId,
    transaction_id: done.saleId,
    product_id: l.product_id,
    product_name: l.product_name,
    qty: l.qty,
    unit_price: l.unit_price,
    line_total: l.line_total,
    discount: l.discount,
    tax_rate: l.tax_rate,
    tax: l.tax,
    cost_price: sale.set.products.get(l.product_id)!.cost_price,
    pack_id: l.pack?.id ?? null,
    pack_name: l.pack ? sale.set.packs.get(l.pack.id)!.name : null,
    pack_qty: l.pack?.qty ?? null,
  }));
}

/** The set after the sale: its receipt number, stock, lots, new customer and what its customer owes. */
export function moveSetOn(sale: SaleDraft, plan: SalePlan): void {
  const { set } = sale;
  set.store.last_number = plan.row.number;
  set.sales.set(plan.row.id, plan.row);
  for (const [id, qty] of plan.stockAfter) set.stock.set(id, qty);
  for (const b of plan.newBatches) set.batches.get(b.product_id)!.push({ ...b });
  for (const m of plan.moves) {
    const held = set.batches.get(m.batch.product_id)!.find((b) => b.id === m.batch.id)!;
    held.qty_on_hand += m.move.qty;
  }
  if (plan.newCustomer) {
    set.customers.set(plan.newCustomer.id, plan.newCustomer);
    set.customersByPhone.set(plan.newCustomer.phone!, plan.newCustomer);
  }
  const owed = plan.row.customer_id === null ? undefined : set.owed.get(plan.row.customer_id);
  if (plan.tab && owed !== undefined) set.owed.set(plan.row.customer_id!, owed + plan.tab.amount);
}
