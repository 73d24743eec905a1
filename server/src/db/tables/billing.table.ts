/** Billing (migration 2026_11_23_0022): plans, subscriptions, invoices, payments and their history. Money in cents. */
export interface PlanTable {
  id: string;
  code: string;
  name_en: string;
  name_sw: string;
  price_monthly: number;
  price_yearly: number;
  max_stores: number | null;
  max_staff: number | null;
  max_products: number | null;
  ai_credits_monthly: number | null;
  sms_monthly: number | null;
  /** JSON array of PlanFeature names. */
  features: string;
  status: string;
  created_at: number;
  updated_at: number;
}

/** One per organisation. `price` is what the running period was bought at (a later price change waits for the next period). */
export interface SubscriptionTable {
  org_id: string;
  plan_id: string;
  status: string;
  billing_cycle: string | null;
  price: number;
  period_start: number | null;
  period_end: number | null;
  cancel_at_period_end: number;
  /** A downgrade waiting for the period end. */
  next_plan_id: string | null;
  next_billing_cycle: string | null;
  past_due_since: number | null;
  last_reminder_at: number | null;
  /** The last phone that paid: renewals are pushed to it. */
  payer_phone: string | null;
  payer_network: string | null;
  created_at: number;
  updated_at: number;
}

export interface InvoiceTable {
  id: string;
  org_id: string;
  number: string;
  kind: string;
  plan_id: string;
  billing_cycle: string;
  amount: number;
  /** The plan's price for the cycle when issued: the period it pays for is bought at this price. */
  plan_price: number;
  status: string;
  period_start: number | null;
  period_end: number | null;
  paid_at: number | null;
  created_at: number;
}

export interface PaymentTable {
  id: string;
  invoice_id: string;
  org_id: string;
  provider: string;
  provider_ref: string | null;
  phone: string;
  network: string;
  amount: number;
  reported_amount: number | null;
  status: string;
  detail: string | null;
  checked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionEventTable {
  id: string;
  org_id: string;
  kind: string;
  from_plan: string | null;
  to_plan: string | null;
  from_status: string | null;
  to_status: string | null;
  invoice_id: string | null;
  payment_id: string | null;
  detail: string;
  user_id: string | null;
  created_at: number;
}
