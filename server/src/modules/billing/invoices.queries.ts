/** Invoices and their payments, and the subscription history written beside them. */
import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';

/** A row of the subscription history: a status change, an invoice or a payment. */
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

export async function insertBillingEvent(db: Kysely<Database>, e: BillingEvent, userId: string | null, now: number): Promise<void> {
  await db
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
      user_id: userId,
      created_at: now,
    })
    .execute();
}

/** Moves to another plan and suspensions of every organisation up to `until`, oldest first: what the platform's churn is worked out from. */
export function planChangeEvents(db: Kysely<Database>, until: number) {
  return db
    .selectFrom('subscription_events')
    .select(['org_id', 'kind', 'to_plan', 'created_at'])
    .where('kind', 'in', ['subscription.changed', 'subscription.suspended'])
    .where('created_at', '<=', until)
    .orderBy('created_at')
    .orderBy('id')
    .modifyEnd(crossOrg('platform operators'))
    .execute();
}

/** The organisation's open renewal invoice for this plan and cycle, if any. */
export function findOpenRenewal(db: Kysely<Database>, orgId: string, planId: string, cycle: string) {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('status', '=', 'open')
    .where('kind', '=', 'renewal')
    .where('plan_id', '=', planId)
    .where('billing_cycle', '=', cycle)
    .executeTakeFirst();
}

/** Number and amount of the organisation's newest open renewal invoice (what a reminder names). */
export function newestOpenRenewal(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('invoices')
    .select(['number', 'amount'])
    .where('org_id', '=', orgId)
    .where('kind', '=', 'renewal')
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** Pending payments of every organisation made at or before `cutoff` and not asked about since then: their callback may be lost. */
export function stalePendingPayments(db: Kysely<Database>, cutoff: number, limit: number) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<=', cutoff)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', cutoff)]))
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** Claim the stale payment for one status query: only while no other instance asked since `p.checked_at`. */
export function claimStalePayment(db: Kysely<Database>, p: { id: string; org_id: string; checked_at: number | null }, now: number) {
  return db
    .updateTable('payments')
    .set({ checked_at: now })
    .where('org_id', '=', p.org_id)
    .where('id', '=', p.id)
    .where('status', '=', 'pending')
    .where((eb) => (p.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', p.checked_at)))
    .executeTakeFirst();
}

/** The invoice of a payment that was just paid, marked paid while still open; undefined when it was not. */
export function markInvoicePaid(db: Kysely<Database>, payment: { org_id: string; invoice_id: string }, now: number) {
  return db
    .updateTable('invoices')
    .set({ status: 'paid', paid_at: now })
    .where('org_id', '=', payment.org_id)
    .where('id', '=', payment.invoice_id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** A pending or failed payment whose reported amount differs from the invoice: recorded, never credited. */
export function markPaymentMismatch(
  db: Kysely<Database>,
  payment: { id: string; org_id: string },
  m: { reported: number; providerRef: string | null; detail: string },
  now: number,
) {
  return db
    .updateTable('payments')
    .set({
      status: 'mismatch',
      reported_amount: m.reported,
      provider_ref: m.providerRef,
      detail: m.detail,
      updated_at: now,
    })
    .where('org_id', '=', payment.org_id)
    .where('id', '=', payment.id)
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
}
