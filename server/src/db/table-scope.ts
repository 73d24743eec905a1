/**
 * Which tables belong to one organisation and which are the platform's, in one place (issue 36).
 * A tenant table's rows each belong to one organisation, named by `org_id` (the organisations
 * table by its own `id`); a database that places rows by tenant (Citus, a PostgreSQL partitioned
 * by organisation) keys, joins and locks them by it. A global table is read across organisations
 * by design, each for the reason given. The record is typed by `Database`, so a new table does not
 * compile until it is placed here.
 */
import type { Database } from './database.js';

/**
 * Where a global table lives in a database distributed by organisation (docs/scale-out.md):
 * `reference`, a copy on every node, for what tenant rows join or point at (users, plans, the ADDO
 * list); `coordinator`, on the coordinator alone, for what only sign-in, jobs and the outbox touch.
 */
export type Placement = 'reference' | 'coordinator';

export type TableScope = { scope: 'tenant'; key: 'org_id' | 'id' } | { scope: 'global'; placement: Placement; why: string };

const tenant = (): TableScope => ({ scope: 'tenant', key: 'org_id' });
const global = (placement: Placement, why: string): TableScope => ({ scope: 'global', placement, why });

export const TABLE_SCOPE: Record<keyof Database, TableScope> = {
  organisations: { scope: 'tenant', key: 'id' },
  stores: tenant(),
  users: global('reference', 'a person signs in before any organisation is known, and platform operators belong to none'),
  refresh_tokens: global('coordinator', "sessions are a user's, and users are global"),
  otps: global('coordinator', 'one-time codes are sent to a phone or an email before sign-in'),
  auth_counters: global('coordinator', 'sign-in limits count per identifier, before any organisation is known'),
  job_leases: global('coordinator', "the instances' coordination of background jobs"),
  platform_settings: global('coordinator', 'facts about the installation every instance must agree on (the signing secret’s fingerprint)'),
  outbox: global(
    'coordinator',
    "platform messages (sign-in codes, operators' mail) share it with shops' messages, claimed by any instance",
  ),
  change_log: tenant(),
  audit_log: global('coordinator', 'platform operators act on no organisation (org_id null); a shop reads its own rows by org_id'),
  plans: global('reference', "the platform's price list"),
  subscriptions: tenant(),
  invoices: tenant(),
  payments: tenant(),
  subscription_events: tenant(),
  ai_credit_usage: tenant(),
  categories: tenant(),
  products: tenant(),
  product_stock: tenant(),
  product_prices: tenant(),
  product_packs: tenant(),
  stock_adjustments: tenant(),
  stock_transfers: tenant(),
  transactions: tenant(),
  transaction_lines: tenant(),
  transaction_payments: tenant(),
  refunds: tenant(),
  refund_lines: tenant(),
  refund_parts: tenant(),
  stock_takes: tenant(),
  stock_take_lines: tenant(),
  stock_take_counts: tenant(),
  purchase_orders: tenant(),
  purchase_order_lines: tenant(),
  purchase_order_deliveries: tenant(),
  shifts: tenant(),
  shift_counts: tenant(),
  collection_accounts: tenant(),
  received_payments: tenant(),
  payment_requests: tenant(),
  fiscal_devices: tenant(),
  fiscal_receipts: tenant(),
  fiscal_z_reports: tenant(),
  customers: tenant(),
  credit_tabs: tenant(),
  credit_payments: tenant(),
  credit_allocations: tenant(),
  credit_messages: tenant(),
  credit_notes: tenant(),
  notifications: tenant(),
  suppliers: tenant(),
  deliveries: tenant(),
  delivery_lines: tenant(),
  supplier_payments: tenant(),
  supplier_payment_allocations: tenant(),
  expenses: tenant(),
  notes: tenant(),
  note_tags: tenant(),
  uploads: tenant(),
  reviews: tenant(),
  idempotency_keys: global(
    'coordinator',
    "a user's request replays, kept per user like their sessions; a platform operator's have no organisation",
  ),
  events: tenant(),
  event_deliveries: tenant(),
  stock_quarantine: tenant(),
  devices: tenant(),
  sync_mutations: tenant(),
  sync_conflicts: tenant(),
  change_log_floor: tenant(),
  report_exports: tenant(),
  scheduled_reports: tenant(),
  sales_daily: tenant(),
  sales_daily_products: tenant(),
  analytics_rollup_state: tenant(),
  ai_conversations: tenant(),
  ai_messages: tenant(),
  agent_conversations: tenant(),
  agent_turns: tenant(),
  agent_actions: tenant(),
  addo_medicines: global('reference', "the national ADDO list (TMDA's), the same for every shop"),
  addo_list_changes: global('reference', "the national ADDO list's history"),
  addo_list_state: global('reference', "the national ADDO list's version"),
  batches: tenant(),
  batch_movements: tenant(),
  recalls: tenant(),
  prescriptions: tenant(),
  prescription_items: tenant(),
};

/** The column that names a tenant table's organisation, or null for a global table. */
export function tenantKeyOf(table: string): string | null {
  const scope = (TABLE_SCOPE as Record<string, TableScope | undefined>)[table];
  return scope?.scope === 'tenant' ? scope.key : null;
}
