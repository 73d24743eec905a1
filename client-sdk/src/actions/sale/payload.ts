/**
 * The queued `sale.create`: what the server books when the queue is pushed. Its prices are the
 * till's (the cashier counted against them); its lots are the ones the till took, which the server
 * keeps where they still hold the units.
 */
import { fromCents, SaleCreatePayload } from '@duka/shared';
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
    lines: p.priced.lines.map((l) => {
      const taken = p.taken.lots.get(l.product_id);
      return {
        product_id: l.product_id,
        qty: l.qty,
        unit_price: fromCents(l.unit_price),
        ...(taken ? { batches: taken.map((b) => ({ batch_id: b.batch_id, qty: b.qty })) } : {}),
      };
    }),
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
