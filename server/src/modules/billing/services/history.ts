/** The subscription history: every status change, invoice and payment, one row each, for the platform admin. */
import { newId } from '@duka/shared';
import type { ServiceContext } from '../../../lib/context.js';

export interface BillingEvent {
  orgId: string;
  kind: string;
  detail: string;
  fromPlan?: string | null;
  toPlan?: string | null;
  fromStatus?: string | null;
  toStatus?: string | null;
  invoiceId?: string | null;
  paymentId?: string | null;
}

export async function recordBillingEvent(ctx: ServiceContext, e: BillingEvent): Promise<void> {
  await ctx.db
    .insertInto('subscription_events')
    .values({
      id: newId(),
      org_id: e.orgId,
      kind: e.kind,
      from_plan: e.fromPlan ?? null,
      to_plan: e.toPlan ?? null,
      from_status: e.fromStatus ?? null,
      to_status: e.toStatus ?? null,
      invoice_id: e.invoiceId ?? null,
      payment_id: e.paymentId ?? null,
      detail: e.detail,
      user_id: ctx.actor?.userId ?? null,
      created_at: ctx.clock.now(),
    })
    .execute();
}
