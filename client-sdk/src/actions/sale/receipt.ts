/**
 * The receipt the till prints and keeps before the sale reaches the server, in the shape the
 * server answers (`Transaction`): numbered by the server once synced, fiscal only then.
 */
import { fromCents, fromCount, isMobileMoney, saleStatusOf, toReceiptLine } from '@duka/shared';
import type { Receipt } from '../../types.js';
import type { PlannedSale, QueuedSale } from './draft.js';

type Source = 'online' | 'offline';

/**
 * One object literal, in the server's field order: built from four spread parts it cost about 3 KB
 * and 0.1-0.3 ms a sale in Node (V8 adds each spread part's fields one by one, off its fast path),
 * the sale's largest share of JavaScript after the storage (issue 53).
 */
export function localReceipt(p: PlannedSale, payload: QueuedSale, source: Source, createdAt: string): Receipt {
  const { input, customer, shop } = p.sale;
  const { priced, tender } = p;
  const wallet = input.payments ? tender.parts.find((t) => isMobileMoney(t.method)) : undefined;
  return {
    id: p.id,
    number: null,
    receipt_number: null,
    client_receipt_number: p.number.clientReceiptNumber,
    status: tender.parts.some((t) => saleStatusOf(t.method) === 'credit') ? 'credit' : 'paid',
    payment_method: tender.method,
    // A split sale's reference and phone are its mobile-money part's, as the server answers them.
    payment_reference: input.payment_reference ?? wallet?.reference ?? null,
    payment_phone: payload.payment_phone ?? wallet?.phone ?? null,
    payment_verification: null,
    payments: tender.parts.map((t) => ({ ...t, amount: fromCents(t.amount), verification: null })),
    price_mode: p.sale.mode,
    subtotal: fromCents(priced.subtotal),
    discount_pct: input.discount_pct ?? 0,
    discount: fromCents(priced.discount),
    tax: fromCents(priced.tax),
    total: fromCents(priced.total),
    customer_id: customer?.id ?? null,
    customer_name: customer?.name ?? input.customer_name ?? null,
    customer_phone: customer?.phone ?? input.customer_phone ?? null,
    customer_tin: input.customer_tin ?? null,
    till_number: input.till_number ?? null,
    notes: input.notes ?? null,
    cashier_id: shop.user?.id ?? null,
    store_id: shop.store.id,
    source,
    client_created_at: createdAt,
    received_at: null,
    cash_tendered: tender.tendered === undefined ? null : fromCents(tender.tendered),
    change_given: tender.change === undefined ? null : fromCents(tender.change),
    refund_reason: null,
    refunded_at: null,
    void_reason: null,
    voided_at: null,
    created_at: createdAt,
    lines: receiptLines(p),
    // Numbered by the server when the sale reaches it; the till shows it once synced.
    fiscal: null,
    sync_state: 'pending',
  };
}

/**
 * The lines in their units (`toReceiptLine`): a pack line names its pack (a loose line leaves it
 * out, as before packs); a product's lots on its first line, as the server's receipt has them.
 */
function receiptLines(p: PlannedSale) {
  const seen = new Set<string>();
  return p.priced.lines.map((l) => {
    const lots = seen.has(l.product_id) ? [] : (p.taken.lots.get(l.product_id) ?? []);
    seen.add(l.product_id);
    // Taken in counts; a receipt's lots are in the unit, as the server answers them (0.15 l, not 150).
    const unit = p.sale.products.get(l.product_id)?.unit ?? 'piece';
    const batches = lots.map((b) => ({ ...b, qty: fromCount(b.qty, unit) }));
    const pack = l.pack && p.sale.lines.find((s) => s.pack?.pack.id === l.pack!.id)?.pack;
    return toReceiptLine(l, batches, pack ? { id: pack.pack.id, name: pack.pack.name, qty: pack.packs } : undefined);
  });
}
