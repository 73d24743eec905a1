/** The subscription history: every status change, invoice and payment, one row each, for the platform admin. */
import type { ServiceContext } from '../../../lib/context.js';
import { type BillingEvent, insertBillingEvent } from '../invoices.queries.js';

/** One row of the history, by the acting user (none for the platform's jobs and callbacks). */
export async function recordBillingEvent(ctx: ServiceContext, e: BillingEvent): Promise<void> {
  await insertBillingEvent(ctx.db, e, ctx.actor?.userId ?? null, ctx.clock.now());
}
