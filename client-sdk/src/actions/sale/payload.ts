/**
 * The queued `sale.create`: what the server books when the queue is pushed. Its prices are the
 * till's (the cashier counted against them); its lots are the ones the till took, which the server
 * keeps where they still hold the units. Quantities are in the product's unit (0.5 kg; a pack line's
 * in packs at one pack's price, with its `pack_id`); a line scanned from a scale label goes as its
 * own line with its `scale_barcode`, for the server to read it again (issue 51).
 */
import { fromCents, fromCount, type PricedLine, SaleCreatePayload } from '@duka/shared';
import type { SellInput } from '../../types.js';
import { invalid } from '../context.js';
import type { PlannedSale, QueuedSale } from './draft.js';

/** The optional fields a sale carries as the cashier gave them, in the order they are queued. */
const AS_GIVEN = [
  'cash_tendered',
  'payment_reference',
  'payment_phone',
  'discount_pct',
  'customer_id',
  'customer_name',
  'customer_phone',
  'customer_tin',
  'till_number',
  'notes',
  'price_mode',
  'prescription',
] as const satisfies ReadonlyArray<keyof SellInput>;

export function queuedPayload(p: PlannedSale, source: 'online' | 'offline'): QueuedSale {
  const { input, shop } = p.sale;
  const payload = {
    id: p.id,
    client_receipt_number: p.number.clientReceiptNumber,
    lines: withLots(p, queuedLines(p)),
    // As the cashier gave it: one method, or the parts (each cash part as handed over).
    ...(input.payments ? { payments: input.payments } : { payment_method: input.payment_method }),
    source,
    ...Object.fromEntries(AS_GIVEN.flatMap((k) => (input[k] === undefined ? [] : [[k, input[k]]]))),
    // Booked to the cashier signed in now, whoever is signed in when the queue is pushed.
    ...(shop.user?.id ? { cashier_id: shop.user.id } : {}),
    ...(p.shiftId ? { shift_id: p.shiftId } : {}),
  };
  const parsed = SaleCreatePayload.safeParse(payload);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  return parsed.data;
}

type Line = { product_id: string; qty: number; unit_price: number; pack_id?: string; scale_barcode?: string };

/** A priced line as queued: by the pack, or its labels each as scanned and the rest loose. */
function queuedLines(p: PlannedSale): Line[] {
  return p.priced.lines.flatMap((l: PricedLine) => {
    const unit = p.sale.products.get(l.product_id)?.unit ?? 'piece';
    const price = fromCents(l.unit_price);
    if (l.pack) return [{ product_id: l.product_id, qty: l.pack.qty, unit_price: price, pack_id: l.pack.id }];
    const labels = p.sale.labels.filter((b) => b.product_id === l.product_id);
    const loose = l.qty - labels.reduce((s, b) => s + b.qty, 0);
    return [
      ...labels.map((b) => ({ product_id: l.product_id, qty: fromCount(b.qty, unit), unit_price: price, scale_barcode: b.barcode })),
      ...(loose > 0 ? [{ product_id: l.product_id, qty: fromCount(loose, unit), unit_price: price }] : []),
    ];
  });
}

/** The lots the till took, on each product's first line (the server takes a product's lines as one). */
function withLots(p: PlannedSale, lines: Line[]): Array<Line & { batches?: Array<{ batch_id: string; qty: number }> }> {
  const seen = new Set<string>();
  return lines.map((l) => {
    const taken = seen.has(l.product_id) ? undefined : p.taken.lots.get(l.product_id);
    seen.add(l.product_id);
    return taken ? { ...l, batches: taken.map((b) => ({ batch_id: b.batch_id, qty: b.qty })) } : l;
  });
}
