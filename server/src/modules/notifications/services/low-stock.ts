/**
 * Low-stock notifications: after a sale commits, each stocked product whose level crossed from
 * above its reorder point to at or below it gets one notification in the sale's store. A product
 * already at or below its reorder point before the sale was notified when it crossed, so later
 * sales add nothing until it is restocked above the point and crosses again. Each notification
 * carries the product's reorder suggestion at that moment (quantity, pack, supplier), by the same
 * rule as GET /inventory/reorder-suggestions, through the reorder-advice port.
 */
import { fromCount, isMeasured, toCount, Unit } from '@duka/shared';
import { z } from 'zod';
import type { Subscriber } from '../../../events/event-bus.js';
import type { ServiceContext } from '../../../lib/context.js';
import type { DomainEvent } from '../../../lib/domain-events.js';
import { createNotification } from './create-notification.js';
import { type ProductAdvice, reorderAdvice } from './reorder-advice-port.js';

/**
 * The part of a `transaction.created` line this subscriber reads. The event's type says what a line
 * holds, but a stored event is read back from JSON unchecked (an older one may lack a field), so
 * each line is checked as it is read.
 */
const SaleLine = z.object({
  product_id: z.string(),
  product_name: z.string(),
  qty: z.number(),
  stock_after: z.number().nullable().optional(),
  reorder_point: z.number().nullable().optional(),
  is_service: z.boolean().optional(),
  // Issue 51: the figures are in the product's unit; an event from before units has none (pieces).
  unit: Unit.optional(),
});

export interface Crossing {
  productId: string;
  productName: string;
  /** Counts of `unit`. */
  left: number;
  unit: Unit;
}

/**
 * Products of the sale that crossed their reorder point. A sale may hold several lines of one
 * product, each carrying the product's level after the whole sale, so the lines are summed:
 * the level before the sale is the lowest `stock_after` plus every line's qty.
 */
export function crossings(event: DomainEvent<'transaction.created'>): Crossing[] {
  const lines = Array.isArray(event.data.lines) ? event.data.lines : [];
  const byProduct = new Map<string, { name: string; qty: number; after: number; point: number; unit: Unit }>();
  for (const raw of lines) {
    const parsed = SaleLine.safeParse(raw);
    if (!parsed.success) continue;
    const l = parsed.data;
    if (l.is_service || l.stock_after == null || l.reorder_point == null || l.qty <= 0) continue;
    // Compared in counts (integers), never in decimal quantities.
    const unit = l.unit ?? 'piece';
    const [qty, after, point] = [l.qty, l.stock_after, l.reorder_point].map((n) => toCount(n, unit)) as [number, number, number];
    const seen = byProduct.get(l.product_id);
    if (seen) {
      seen.qty += qty;
      seen.after = Math.min(seen.after, after);
    } else byProduct.set(l.product_id, { name: l.product_name, qty, after, point, unit });
  }
  return [...byProduct]
    .filter(([, p]) => p.after + p.qty > p.point && p.point >= p.after)
    .map(([productId, p]) => ({ productId, productName: p.name, left: p.after, unit: p.unit }));
}

/** "4 x Bale (40 units) from Bakhresa Wholesale", "11 kg": what the reorder rule suggests, as the owner orders it. */
function adviceText(a: ProductAdvice): { en: string; sw: string } {
  const amount = isMeasured(a.unit) ? `${a.suggested} ${a.unit}` : `${a.suggested} ${a.suggested === 1 ? 'unit' : 'units'}`;
  const what = a.pack ? `${a.pack.packs} x ${a.pack.name} (${amount})` : amount;
  return a.supplierName ? { en: `${what} from ${a.supplierName}`, sw: `${what} kutoka ${a.supplierName}` } : { en: what, sw: what };
}

/**
 * `left` is in counts of `unit`: a measured product's message names its measure ("1.5 kg"). With
 * advice, the message says what to order and from whom, the reorder suggestion of that moment.
 */
export function lowStockMessage(name: string, left: number, unit: Unit = 'piece', advice?: ProductAdvice): { title: string; body: string } {
  const suggested = advice ? adviceText(advice) : null;
  const order = suggested ? ` Suggested order: ${suggested.en}. Pendekezo: agiza ${suggested.sw}.` : '';
  if (left <= 0) {
    return {
      title: `Out of stock: ${name}`,
      body: `${name} is out of stock; order more. ${name} imekwisha; agiza zaidi.${order}`,
    };
  }
  const measure = `${fromCount(left, unit)} ${unit}`;
  const [en, sw] = isMeasured(unit)
    ? [measure, `Zimebaki ${measure}`]
    : left === 1
      ? ['1 unit', 'Kimebaki kipande 1']
      : [`${left} units`, `Vimebaki vipande ${left}`];
  return {
    title: `Low stock: ${name}`,
    body: `Only ${en} of ${name} left; order more. ${sw} tu; agiza zaidi.${order}`,
  };
}

async function handle(ctx: ServiceContext, event: DomainEvent<'transaction.created'>): Promise<void> {
  if (!event.store_id) return;
  const crossed = crossings(event);
  const advice = await reorderAdvice(ctx)(
    ctx,
    { orgId: event.org_id, storeId: event.store_id },
    crossed.map((c) => c.productId),
  );
  for (const c of crossed) {
    await createNotification(ctx, {
      orgId: event.org_id,
      storeId: event.store_id,
      category: 'stock',
      ...lowStockMessage(c.productName, c.left, c.unit, advice.get(c.productId)),
      link: `/inventory/products/${c.productId}`,
    });
  }
}

export const lowStockNotifications: Subscriber<'transaction.created'> = {
  name: 'low-stock-notifications',
  types: ['transaction.created'],
  // Runs inside the sale's transaction: most sales cross nothing and then cost no delivery. Never throws.
  wants: (event) => {
    try {
      return event.store_id != null && crossings(event).length > 0;
    } catch {
      return true;
    }
  },
  handle,
};
