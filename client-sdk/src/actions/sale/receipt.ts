/**
 * The receipt the till prints and keeps before the sale reaches the server, in the shape the
 * server answers (`Transaction`): numbered by the server once synced, fiscal only then.
 */
import { fromCents, fromCount, isMobileMoney, saleStatusOf, toReceiptLine } from '@duka/shared';
import type { Receipt } from '../../types.js';
import type { PlannedSale, QueuedSale } from './draft.js';

type Source = 'online' | 'offline';

function head(p: PlannedSale, payload: QueuedSale) {
  const { input } = p.sale;
  const wallet = input.payments ? p.tender.parts.find((t) => isMobileMoney(t.method)) : undefined;
  return {
    id: p.id,
    number: null,
    receipt_number: null,
    client_receipt_number: p.number.clientReceiptNumber,
    status: p.tender.parts.some((t) => saleStatusOf(t.method) === 'credit') ? ('credit' as const) : ('paid' as const),
    payment_method: p.tender.method,
    // A split sale's reference and phone are its mobile-money part's, as the server answers them.
    payment_reference: input.payment_reference ?? wallet?.reference ?? null,
    payment_phone: payload.payment_phone ?? wallet?.phone ?? null,
    payment_verification: null,
    payments: p.tender.parts.map((t) => ({ ...t, amount: fromCents(t.amount), verification: null })),
    price_mode: p.sale.mode,
  };
}

function money(p: PlannedSale) {
  const { priced } = p;
  const total = fromCents(priced.total);
  return {
    subtotal: fromCents(priced.subtotal),
    discount_pct: p.sale.input.discount_pct ?? 0,
    discount: fromCents(priced.discount),
    tax: fromCents(priced.tax),
    total,
  };
}

function people(p: PlannedSale) {
  const { input, customer, shop } = p.sale;
  return {
    customer_id: customer?.id ?? null,
    customer_name: customer?.name ?? input.customer_name ?? null,
    customer_phone: customer?.phone ?? input.customer_phone ?? null,
    customer_tin: input.customer_tin ?? null,
    till_number: input.till_number ?? null,
    notes: input.notes ?? null,
    cashier_id: shop.user?.id ?? null,
    store_id: shop.store.id,
  };
}

function tail(p: PlannedSale, source: Source, createdAt: string) {
  const { tendered, change } = p.tender;
  return {
    source,
    client_created_at: createdAt,
    received_at: null,
    cash_tendered: tendered === undefined ? null : fromCents(tendered),
    change_given: change === undefined ? null : fromCents(change),
    refund_reason: null,
    refunded_at: null,
    void_reason: null,
    voided_at: null,
    created_at: createdAt,
    lines: receiptLines(p),
    // Numbered by the server when the sale reaches it; the till shows it once synced.
    fiscal: null,
    sync_state: 'pending' as const,
  };
}

export function localReceipt(p: PlannedSale, payload: QueuedSale, source: Source, createdAt: string): Receipt {
  return { ...head(p, payload), ...money(p), ...people(p), ...tail(p, source, createdAt) };
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
