/**
 * The `customer-stats` subscriber: after a sale, refund or void, recompute the customer's spend,
 * visits and purchase dates from the ledger, and its segment from the contract's criteria.
 */
import type { CustomerSegment } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import type { ServiceContext } from '../../../lib/context.js';
import type { Subscriber } from '../../../events/event-bus.js';
import { findCustomer, NO_PURCHASES, type PurchaseHistory, purchaseHistory, vipsBelow, vipThreshold } from '../customers.queries.js';

const DAY_MS = 86_400_000;
export const REGULAR_WINDOW_MS = 90 * DAY_MS;
export const NEW_WINDOW_MS = 30 * DAY_MS;

/**
 * VIP (spend at or above the VIP threshold) > Regular (3+ purchases in the last 90 days) > New
 * (first purchase, or for a customer who has bought nothing yet its creation, within 30 days) >
 * Occasional.
 */
export function segmentOf(h: PurchaseHistory, threshold: number | null, now: number, createdAt: number): CustomerSegment {
  if (threshold !== null && h.spend > 0 && h.spend >= threshold) return 'VIP';
  if (h.recent >= 3) return 'Regular';
  if ((h.first ?? createdAt) >= now - NEW_WINDOW_MS) return 'New';
  return 'Occasional';
}

export async function refreshCustomerStats(ctx: ServiceContext, orgId: string, customerId: string): Promise<void> {
  const customer = await findCustomer(ctx.db, orgId, customerId);
  if (!customer) return;
  const now = ctx.clock.now();
  const since = now - REGULAR_WINDOW_MS;
  const h = (await purchaseHistory(ctx.db, orgId, [customerId], since)).get(customerId) ?? NO_PURCHASES;
  const customers = () => ctx.db.updateTable('customers').where('org_id', '=', orgId);
  await customers()
    .set({ total_spend: h.spend, visit_count: h.visits, first_purchase_at: h.first, last_purchase_at: h.last, updated_at: now })
    .where('id', '=', customerId)
    .execute();
  const threshold = await vipThreshold(ctx.db, orgId);
  await customers()
    .set({ segment: segmentOf(h, threshold, now, customer.created_at) })
    .where('id', '=', customerId)
    .execute();
  noteChange(ctx, orgId, { entity: 'customer', id: customerId });

  // This customer's spend moves the VIP line for everyone: whoever reached it is VIP now, and a VIP
  // left below it falls back to the segment its own history gives.
  if (threshold !== null) {
    const promoted = await customers()
      .set({ segment: 'VIP', updated_at: now })
      .where('total_spend', '>=', threshold)
      .where('total_spend', '>', 0)
      .where('segment', '!=', 'VIP')
      .returning('id')
      .execute();
    for (const { id } of promoted) noteChange(ctx, orgId, { entity: 'customer', id });
  }
  const demoted = await vipsBelow(ctx.db, orgId, customerId, threshold);
  const histories = await purchaseHistory(
    ctx.db,
    orgId,
    demoted.map((d) => d.id),
    since,
  );
  for (const d of demoted) {
    await customers()
      .set({ segment: segmentOf(histories.get(d.id) ?? NO_PURCHASES, threshold, now, d.created_at), updated_at: now })
      .where('id', '=', d.id)
      .execute();
    noteChange(ctx, orgId, { entity: 'customer', id: d.id });
  }
}

/**
 * Event data of `transaction.*` carries the sale's `customer_id` (null for a walk-in). A refund of
 * part (issue 51) lowers the spend by what it gave back, as a whole refund takes the sale out.
 */
export const customerStatsSubscriber: Subscriber<
  'transaction.created' | 'transaction.refunded' | 'transaction.partially_refunded' | 'transaction.voided'
> = {
  name: 'customer-stats',
  types: ['transaction.created', 'transaction.refunded', 'transaction.partially_refunded', 'transaction.voided'],
  wants: (event) => typeof event.data.customer_id === 'string',
  async handle(ctx, event) {
    const customerId = event.data.customer_id;
    if (typeof customerId === 'string') await refreshCustomerStats(ctx, event.org_id, customerId);
  },
};
