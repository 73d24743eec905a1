/**
 * Plans, subscriptions, invoices and payments as the API shows them, and the enumerations every
 * side derives from. Money is TZS with at most 2 decimals in the API (integer cents inside).
 */
import { z } from 'zod';
import { Money, MoneyInput, orNull, Phone, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { MobileNetwork } from '../integrations.js';

/** `active`; `past_due`: a renewal is unpaid, within the grace; `suspended`: held to the free plan's limits. */
export const SubscriptionStatus = z.enum(['active', 'past_due', 'suspended']).meta({ id: 'SubscriptionStatus' });
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const BillingCycle = z.enum(['monthly', 'yearly']).meta({ id: 'BillingCycle' });
export type BillingCycle = z.infer<typeof BillingCycle>;

export const PlanStatus = z.enum(['active', 'retired']).meta({ id: 'PlanStatus' });
export type PlanStatus = z.infer<typeof PlanStatus>;

export const PlanFeature = z
  .enum(['scheduled_email_reports', 'pharmacy_registers', 'customer_sms', 'ai_gateway'])
  .meta({ id: 'PlanFeature' });
export type PlanFeature = z.infer<typeof PlanFeature>;

/** What a plan limits; each maps to one `max_*` / `*_monthly` field. */
export const PlanLimitName = z.enum(['stores', 'staff', 'products', 'ai_credits', 'sms']).meta({ id: 'PlanLimitName' });
export type PlanLimitName = z.infer<typeof PlanLimitName>;

/** `new`: starts a period on payment; `upgrade`: the prorated rest of the running period; `renewal`: the next period. */
export const InvoiceKind = z.enum(['new', 'upgrade', 'renewal']).meta({ id: 'InvoiceKind' });
export type InvoiceKind = z.infer<typeof InvoiceKind>;
export const InvoiceStatus = z.enum(['open', 'paid', 'void']).meta({ id: 'InvoiceStatus' });
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;
/** `mismatch`: the provider reported a different amount; recorded, not credited. */
export const PaymentStatus = z.enum(['pending', 'paid', 'failed', 'mismatch']).meta({ id: 'PaymentStatus' });
export type PaymentStatus = z.infer<typeof PaymentStatus>;

const Limit = z.int().min(0).max(1_000_000_000).nullable();
const PlanCode = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{1,31}$/, 'lowercase letters, digits, - and _, 2 to 32 characters');

export const PlanLimits = z.object({
  max_stores: Limit.meta({ description: 'null = unlimited' }),
  max_staff: Limit.meta({ description: 'Users other than the owner; null = unlimited' }),
  max_products: Limit.meta({ description: 'null = unlimited' }),
  ai_credits_monthly: Limit.meta({ description: 'null = unlimited' }),
  sms_monthly: Limit.meta({ description: 'Customer SMS a month; null = unlimited' }),
});
export type PlanLimits = z.infer<typeof PlanLimits>;

export const Plan = PlanLimits.extend({
  id: z.uuid(),
  code: z.string(),
  name_en: z.string(),
  name_sw: z.string(),
  price_monthly: Money,
  price_yearly: Money,
  features: z.array(PlanFeature),
  status: PlanStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
}).meta({ id: 'Plan' });
export type Plan = z.infer<typeof Plan>;

/** Prices in whole shillings: mobile money moves no cents. */
const Price = MoneyInput.refine((v) => Number.isInteger(v), 'whole shillings');

const PlanFields = PlanLimits.extend({
  code: PlanCode,
  name_en: z.string().trim().min(1).max(60),
  name_sw: z.string().trim().min(1).max(60),
  price_monthly: Price,
  price_yearly: Price,
  features: z.array(PlanFeature).max(20),
});

export const CreatePlanInput = PlanFields.extend({ features: PlanFields.shape.features.default([]) }).meta({ id: 'CreatePlanInput' });
export type CreatePlanInput = z.infer<typeof CreatePlanInput>;

// From the fields without defaults: a field left out of an update stays as it is.
export const UpdatePlanInput = PlanFields.omit({ code: true })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'send at least one field')
  .meta({ id: 'UpdatePlanInput', description: 'A new price applies to periods that start after the change' });
export type UpdatePlanInput = z.infer<typeof UpdatePlanInput>;

export const UsageItem = z.object({
  limit: PlanLimitName,
  used: z.int(),
  max: z.int().nullable().meta({ description: 'null = unlimited' }),
});

export const CurrentSubscription = z
  .object({
    plan: Plan,
    effective_plan_code: z.string().meta({ description: 'The plan whose limits apply now (`free` while suspended)' }),
    status: SubscriptionStatus,
    billing_cycle: BillingCycle.nullable().meta({ description: 'null on a free plan' }),
    current_period_start: Timestamp.nullable(),
    current_period_end: Timestamp.nullable(),
    cancel_at_period_end: z.boolean(),
    scheduled_change: z
      .object({ plan_code: z.string(), billing_cycle: BillingCycle, at: Timestamp })
      .nullable()
      .meta({ description: 'A downgrade or cancellation waiting for the period end' }),
    grace_ends_at: Timestamp.nullable().meta({ description: 'While past_due: when the organisation is suspended' }),
    usage: z.array(UsageItem).meta({ description: 'Stores, staff, products; AI credits and SMS this month' }),
  })
  .meta({ id: 'CurrentSubscription' });
export type CurrentSubscription = z.infer<typeof CurrentSubscription>;

export const CheckoutInput = z
  .object({ plan_code: z.string().trim().min(1).max(32), billing_cycle: BillingCycle, phone: Phone, network: MobileNetwork })
  .meta({ id: 'CheckoutInput' });
export type CheckoutInput = z.infer<typeof CheckoutInput>;

export const Payment = z
  .object({
    id: z.uuid(),
    invoice_id: z.uuid(),
    provider: z.string(),
    amount: Money,
    status: PaymentStatus,
    detail: z.string().nullable().meta({ description: "The provider's words for a failure or a mismatch" }),
    phone: z.string(),
    network: MobileNetwork,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const Invoice = z
  .object({
    id: z.uuid(),
    number: z.string(),
    kind: InvoiceKind,
    plan_code: z.string(),
    billing_cycle: BillingCycle,
    amount: Money,
    status: InvoiceStatus,
    period_start: Timestamp.nullable().meta({ description: 'null for a new period: it starts when paid' }),
    period_end: Timestamp.nullable(),
    paid_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

export const CheckoutResult = z
  .object({
    change: z.enum(['started', 'scheduled', 'resumed']).meta({
      description:
        '`started`: a payment was pushed; `scheduled`: a downgrade waits for the period end; `resumed`: a cancellation was undone',
    }),
    invoice: orNull(Invoice),
    payment: orNull(Payment),
  })
  .meta({ id: 'CheckoutResult' });
export type CheckoutResult = z.infer<typeof CheckoutResult>;

export const ListInvoicesQuery = PageQuery.meta({ id: 'ListInvoicesQuery' });
export type ListInvoicesQuery = z.infer<typeof ListInvoicesQuery>;

/** One line of an organisation's billing history: a status change, an invoice, a payment, a reminder. */
export const BillingEvent = z
  .object({
    id: z.uuid(),
    org_id: z.uuid(),
    kind: z.string().meta({
      example: 'subscription.changed',
      description:
        'invoice.issued, payment.started, payment.paid, payment.failed, payment.mismatch, payment.unapplied, subscription.changed, subscription.suspended, subscription.downgrade_scheduled, subscription.cancel_requested, subscription.resumed, reminder.sent',
    }),
    from_plan: z.string().nullable(),
    to_plan: z.string().nullable(),
    from_status: z.string().nullable(),
    to_status: z.string().nullable(),
    invoice_id: z.uuid().nullable(),
    payment_id: z.uuid().nullable(),
    detail: z.string(),
    user_id: z.uuid().nullable().meta({ description: 'Who did it; null for the billing job and provider callbacks' }),
    created_at: Timestamp,
  })
  .meta({ id: 'BillingEvent' });
export type BillingEvent = z.infer<typeof BillingEvent>;

export const ListBillingEventsQuery = PageQuery.extend({
  org_id: z.uuid().optional().meta({ description: 'Only this organisation' }),
}).meta({ id: 'ListBillingEventsQuery' });
export type ListBillingEventsQuery = z.infer<typeof ListBillingEventsQuery>;
