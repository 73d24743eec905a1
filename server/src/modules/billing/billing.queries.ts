/** Billing reads and row mappers: plans, subscriptions, invoices, payments, and what an organisation uses. */
import { fromCents, type Invoice, type Payment, type Plan, type PlanFeature, type LimitPlan } from '@duka/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import type { InvoiceTable, PaymentTable, PlanTable, SubscriptionTable } from '../../db/tables/billing.table.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import { DEFAULT_TIMEZONE, localMonth, startOfLocalDay } from '../../lib/time.js';

export type PlanRow = Selectable<PlanTable>;
export type SubscriptionRow = Selectable<SubscriptionTable>;
export type InvoiceRow = Selectable<InvoiceTable>;
export type PaymentRow = Selectable<PaymentTable>;

export const FREE_PLAN = 'free';

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    code: row.code,
    name_en: row.name_en,
    name_sw: row.name_sw,
    price_monthly: fromCents(Number(row.price_monthly)),
    price_yearly: fromCents(Number(row.price_yearly)),
    max_stores: row.max_stores,
    max_staff: row.max_staff,
    max_products: row.max_products,
    ai_credits_monthly: row.ai_credits_monthly,
    sms_monthly: row.sms_monthly,
    features: JSON.parse(row.features) as PlanFeature[],
    status: row.status as Plan['status'],
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

export const toLimitPlan = (row: PlanRow): LimitPlan => ({
  code: row.code,
  name_en: row.name_en,
  price_monthly_cents: Number(row.price_monthly),
  status: row.status as LimitPlan['status'],
  max_stores: row.max_stores,
  max_staff: row.max_staff,
  max_products: row.max_products,
  ai_credits_monthly: row.ai_credits_monthly,
  sms_monthly: row.sms_monthly,
});

export const priceOf = (plan: PlanRow, cycle: string) => Number(cycle === 'yearly' ? plan.price_yearly : plan.price_monthly);

export const allPlans = (db: Kysely<Database>) => db.selectFrom('plans').selectAll().orderBy('price_monthly').orderBy('code').execute();
export const findPlan = (db: Kysely<Database>, id: string) => db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
export const findPlanByCode = (db: Kysely<Database>, code: string) =>
  db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirst();
export const findSubscription = (db: Kysely<Database>, orgId: string) =>
  db.selectFrom('subscriptions').selectAll().where('org_id', '=', orgId).executeTakeFirst();

export function toInvoice(row: InvoiceRow, planCode: string): Invoice {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind as Invoice['kind'],
    plan_code: planCode,
    billing_cycle: row.billing_cycle as Invoice['billing_cycle'],
    amount: fromCents(Number(row.amount)),
    status: row.status as Invoice['status'],
    period_start: isoOrNull(row.period_start == null ? null : Number(row.period_start)),
    period_end: isoOrNull(row.period_end == null ? null : Number(row.period_end)),
    paid_at: isoOrNull(row.paid_at == null ? null : Number(row.paid_at)),
    created_at: iso(Number(row.created_at)),
  };
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    provider: row.provider,
    amount: fromCents(Number(row.amount)),
    status: row.status as Payment['status'],
    detail: row.detail,
    phone: row.phone,
    network: row.network as Payment['network'],
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** Every organisation's active subscription on a paid period: what the platform's MRR is summed from. */
export function paidRunningSubscriptions(db: Kysely<Database>) {
  return db
    .selectFrom('subscriptions')
    .select(['billing_cycle', 'price'])
    .where('status', '=', 'active')
    .where('price', '>', 0)
    .where('billing_cycle', 'is not', null)
    .modifyEnd(crossOrg('platform operators'))
    .execute();
}

/** The billing job's scans over every organisation: active periods ended by `now`. */
export function periodsEnded(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '=', 'active')
    .where('period_end', '<=', now)
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** Organisations past due since `since` or earlier: their grace is over. */
export function graceOver(db: Kysely<Database>, since: number, limit: number) {
  return db
    .selectFrom('subscriptions')
    .select(['org_id'])
    .where('status', '=', 'past_due')
    .where('past_due_since', '<=', since)
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** Organisations past due and not reminded since `since`. */
export function dueReminders(db: Kysely<Database>, since: number, limit: number) {
  return db
    .selectFrom('subscriptions')
    .select(['org_id', 'past_due_since'])
    .where('status', '=', 'past_due')
    .where((eb) => eb.or([eb('last_reminder_at', 'is', null), eb('last_reminder_at', '<=', since)]))
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** What an organisation has: active stores, active users other than the owner, active products. */
export async function countGrowth(db: Kysely<Database>, orgId: string) {
  const [stores, staff, products] = await Promise.all([
    db
      .selectFrom('stores')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('is_active', '=', 1)
      .where('role', '!=', 'owner')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow(),
  ]);
  return { stores: Number(stores.n), staff: Number(staff.n), products: Number(products.n) };
}

/** This month (the organisation's time zone): AI credits taken and customer SMS written to the outbox. */
export async function countMonthly(db: Kysely<Database>, orgId: string, now: number) {
  const org = await db.selectFrom('organisations').select('timezone').where('id', '=', orgId).executeTakeFirst();
  const tz = org?.timezone ?? DEFAULT_TIMEZONE;
  const month = localMonth(now, tz);
  const [ai, sms] = await Promise.all([
    db.selectFrom('ai_credit_usage').select('used').where('org_id', '=', orgId).where('month', '=', month).executeTakeFirst(),
    // The plan's SMS are a shop's customer messages on the platform's account (its own account is its own bill).
    db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('channel', '=', 'sms')
      .where('for_customer', '=', 1)
      .where('account', '=', 'platform')
      .where('status', '!=', 'rejected')
      .where('created_at', '>=', startOfLocalDay(`${month}-01`, tz))
      .executeTakeFirstOrThrow(),
  ]);
  return { month, ai_credits: Number(ai?.used ?? 0), sms: Number(sms.n) };
}

/** Registration: a new organisation starts on free, active, with no period (the contract: no trial). */
export async function startOnFree(db: Kysely<Database>, orgId: string, now: number): Promise<void> {
  const free = await findPlanByCode(db, FREE_PLAN);
  if (!free) throw new Error('the free plan is missing: migration 2026_11_23_0022 seeds it');
  await db
    .insertInto('subscriptions')
    .values({
      org_id: orgId,
      plan_id: free.id,
      status: 'active',
      billing_cycle: null,
      price: 0,
      period_start: null,
      period_end: null,
      cancel_at_period_end: 0,
      next_plan_id: null,
      next_billing_cycle: null,
      past_due_since: null,
      last_reminder_at: null,
      payer_phone: null,
      payer_network: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The subscription runs the paid invoice's plan and cycle for `period`, nothing scheduled or overdue, paid from the payment's phone. */
export async function activateSubscription(
  db: Kysely<Database>,
  invoice: InvoiceRow,
  payment: PaymentRow,
  period: Pick<SubscriptionRow, 'period_start' | 'period_end'>,
  now: number,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({
      plan_id: invoice.plan_id,
      status: 'active',
      billing_cycle: invoice.billing_cycle,
      price: invoice.plan_price,
      ...period,
      cancel_at_period_end: 0,
      next_plan_id: null,
      next_billing_cycle: null,
      past_due_since: null,
      last_reminder_at: null,
      payer_phone: payment.phone,
      payer_network: payment.network,
      updated_at: now,
    })
    .where('org_id', '=', invoice.org_id)
    .execute();
}
