/**
 * Platform administration: organisations, their users and stores, plans, AI usage, platform
 * analytics and monitoring. Entities are the owner routes' shapes plus `org_id`/`organisation_name`.
 */
import { z } from 'zod';
import { User, Organisation } from '../accounts/accounts.schemas.js';
import { ActiveFilter, BusinessTypeSlug, DateString, Money, Role, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { StaffRole } from '../staff/staff.schemas.js';
import { Store, StoreStatus } from '../stores/stores.schemas.js';
import { BillingCycle, PaymentStatus, SubscriptionStatus } from '../billing/billing.schemas.js';

const Search = z.string().trim().min(1).max(100).optional();
const OrgFilter = z.uuid().optional().meta({ description: 'Only this organisation' });
const ActiveStatus = ActiveFilter.optional().meta({ description: '`is_active` true or false' });
const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);

/** The paged list query every admin list starts from: `page`, `page_size`, `org_id`. */
export const AdminOrgQuery = PageQuery.extend({ org_id: OrgFilter });

export const AdminPlan = z
  .string()
  .meta({ id: 'AdminPlan', description: "The code of the organisation's plan (`free`, or a plan from /subscriptions/admin/plans)" });

export const AdminOrganisation = Organisation.extend({
  is_active: z.boolean().meta({ description: 'false: suspended by the platform (its users are signed out)' }),
  ai_credits_monthly: z.int().nullable().meta({ description: 'Custom monthly AI credit allocation; null = the allowance of its plan' }),
  plan: AdminPlan,
  store_count: z.int(),
  user_count: z.int(),
}).meta({ id: 'AdminOrganisation' });
export type AdminOrganisation = z.infer<typeof AdminOrganisation>;

export const AdminOrganisationDetail = AdminOrganisation.extend({
  counts: z
    .object({
      stores: z.int(),
      active_stores: z.int(),
      users: z.int(),
      active_users: z.int(),
      products: z.int(),
      customers: z.int(),
      suppliers: z.int().meta({ description: 'Not deleted' }),
      transactions: z.int(),
      devices: z.int().meta({ description: 'Registered tills' }),
    })
    .meta({ description: 'Related records, all time' }),
  sales_total: Money.meta({ description: 'Paid and credit sales, all time' }),
  last_sale_at: Timestamp.nullable(),
  ai_credits: z
    .object({ month: z.string(), used: z.int(), allocated: z.int() })
    .meta({ description: "This month's AI credits (the organisation's month)" }),
}).meta({ id: 'AdminOrganisationDetail' });
export type AdminOrganisationDetail = z.infer<typeof AdminOrganisationDetail>;

export const ListAdminOrganisationsQuery = PageQuery.extend({
  search: Search.meta({ description: 'Name, legal name, email or phone contains, any case' }),
  status: ActiveStatus,
  business_type: BusinessTypeSlug.optional(),
});
export type ListAdminOrganisationsQuery = z.infer<typeof ListAdminOrganisationsQuery>;

export const UpdateAdminOrganisationInput = z
  .object({
    is_active: z
      .boolean()
      .optional()
      .meta({ description: 'false suspends the organisation and signs out all its users; true restores it' }),
    ai_credits_monthly: z
      .int()
      .min(0)
      .max(1_000_000)
      .nullable()
      .optional()
      .meta({ description: 'Monthly AI credits; null returns to the allowance of its plan' }),
  })
  .refine(atLeastOne, 'send at least one field')
  .meta({ id: 'UpdateAdminOrganisationInput' });
export type UpdateAdminOrganisationInput = z.infer<typeof UpdateAdminOrganisationInput>;

export const AdminUser = User.extend({
  org_id: z.uuid().nullable().meta({ description: 'null for platform administrators' }),
  organisation_name: z.string().nullable(),
  last_login_at: Timestamp.nullable(),
}).meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

export const ListAdminUsersQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'First name, last name, email or phone contains, any case' }),
  role: Role.optional(),
  status: ActiveStatus,
  store_id: z.uuid().optional(),
});
export type ListAdminUsersQuery = z.infer<typeof ListAdminUsersQuery>;

export const UpdateAdminUserInput = z
  .object({
    is_active: z
      .boolean()
      .optional()
      .meta({ description: 'false deactivates the account and signs it out everywhere; true reactivates it' }),
    role: StaffRole.optional().meta({ description: 'Between manager and staff only; owners and administrators keep their role' }),
    reset_password: z.literal(true).optional().meta({
      description: 'Text the user a new temporary password and sign them out everywhere; their next sign-in may only set a new password',
    }),
  })
  .refine(atLeastOne, 'send at least one field')
  .meta({ id: 'UpdateAdminUserInput' });
export type UpdateAdminUserInput = z.infer<typeof UpdateAdminUserInput>;

export const AdminStore = Store.extend({
  org_id: z.uuid(),
  organisation_name: z.string(),
  user_count: z.int().meta({ description: 'Active accounts assigned to the store' }),
}).meta({
  id: 'AdminStore',
});
export type AdminStore = z.infer<typeof AdminStore>;

export const ListAdminStoresQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'Name, code or area contains, any case' }),
  status: ActiveStatus,
});
export type ListAdminStoresQuery = z.infer<typeof ListAdminStoresQuery>;

export const UpdateAdminStoreInput = z
  .object({
    is_active: z
      .boolean()
      .optional()
      .meta({ description: "false deactivates (refused for the organisation's only active store, as for the owner)" }),
    status: StoreStatus.optional(),
  })
  .refine(atLeastOne, 'send at least one field')
  .meta({ id: 'UpdateAdminStoreInput' });
export type UpdateAdminStoreInput = z.infer<typeof UpdateAdminStoreInput>;

/** An organisation's standing on the platform, read from its `is_active`. */
export const OrganisationStatus = z.enum(['active', 'suspended']);
export type OrganisationStatus = z.infer<typeof OrganisationStatus>;

export const AdminSubscription = z
  .object({
    org_id: z.uuid(),
    organisation_name: z.string(),
    plan: AdminPlan,
    status: OrganisationStatus.meta({ description: 'From the organisation’s `is_active`' }),
    subscription_status: SubscriptionStatus,
    ai_credits_monthly: z
      .int()
      .nullable()
      .meta({ description: "Allocation in force: the organisation's own, else its plan's; null = unlimited" }),
    ai_credits_custom: z.boolean().meta({ description: 'true when the organisation has its own allocation' }),
    since: Timestamp.meta({ description: 'When the organisation signed up' }),
    billing: z
      .object({
        billing_cycle: BillingCycle,
        price: Money.meta({ description: 'What the running period was bought at' }),
        monthly_equivalent: Money,
        current_period_end: Timestamp.nullable(),
        cancel_at_period_end: z.boolean(),
        last_payment: z.object({ status: PaymentStatus, amount: Money, at: Timestamp, detail: z.string().nullable() }).nullable(),
      })
      .nullable()
      .meta({ description: 'null on the free plan' }),
  })
  .meta({ id: 'AdminSubscription' });
export type AdminSubscription = z.infer<typeof AdminSubscription>;

export const ListAdminSubscriptionsQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'Organisation name contains, any case' }),
  status: OrganisationStatus.optional(),
});
export type ListAdminSubscriptionsQuery = z.infer<typeof ListAdminSubscriptionsQuery>;

export const AdminAiUsage = z
  .object({
    org_id: z.uuid(),
    organisation_name: z.string(),
    month: z.string().meta({ example: '2026-11' }),
    used: z.int(),
    tokens: z.int(),
    allocated: z.int(),
    remaining: z.int(),
    percentage: z.number().meta({ description: 'used / allocated × 100, 2 decimals' }),
  })
  .meta({ id: 'AdminAiUsage' });
export type AdminAiUsage = z.infer<typeof AdminAiUsage>;

export const ListAdminAiUsageQuery = AdminOrgQuery.extend({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM')
    .optional()
    .meta({ description: "YYYY-MM; default each organisation's current month in its time zone" }),
});
export type ListAdminAiUsageQuery = z.infer<typeof ListAdminAiUsageQuery>;

export const AdminAnalyticsQuery = z.object({
  date_from: DateString.optional().meta({ description: 'Default 29 days before date_to' }),
  date_to: DateString.optional().meta({ description: 'Default today (Africa/Dar_es_Salaam); at most 366 days in all' }),
});
export type AdminAnalyticsQuery = z.infer<typeof AdminAnalyticsQuery>;

export const AdminAnalyticsOverview = z
  .object({
    date_from: DateString,
    date_to: DateString,
    total_sales: Money.meta({ description: 'Paid and credit sales in the range, all organisations' }),
    transaction_count: z.int(),
    average_ticket: Money,
    refund_total: Money,
    selling_organisations: z.int().meta({ description: 'Organisations with at least one sale in the range' }),
    new_organisations: z.int().meta({ description: 'Signed up in the range' }),
    new_users: z.int(),
    daily: z
      .array(z.object({ date: DateString, sales: Money, transactions: z.int(), new_organisations: z.int() }))
      .meta({ description: 'Every day of the range' }),
    top_organisations: z
      .array(z.object({ org_id: z.uuid(), organisation_name: z.string(), sales: Money, transactions: z.int() }))
      .meta({ description: 'Up to 10, by sales' }),
    subscriptions: z
      .object({
        mrr: Money.meta({
          description:
            "Now: the sum of active paid subscriptions' monthly-equivalent price (a yearly price / 12, rounded down to the cent)",
        }),
        paying_organisations: z.int().meta({ description: 'Now: active subscriptions on a paid plan' }),
        paid_at_start: z.int().meta({ description: 'Organisations on a paid plan (active or past_due) 30 days ago' }),
        churned: z.int().meta({ description: 'Of those, how many moved to free or were suspended in the 30 days since' }),
        churn_rate: z.number().meta({ description: 'churned / paid_at_start × 100, 2 decimals; 0 when none were paid' }),
      })
      .meta({ description: 'Billing figures over the 30 days before now, whatever date range was asked' }),
  })
  .meta({ id: 'AdminAnalyticsOverview', description: 'Days are Africa/Dar_es_Salaam days (the platform time zone)' });
export type AdminAnalyticsOverview = z.infer<typeof AdminAnalyticsOverview>;

export const MonitoringOverview = z
  .object({
    organisations: z.object({ total: z.int(), active: z.int() }),
    users: z.object({ total: z.int(), active: z.int(), signed_in_today: z.int() }),
    stores: z.object({ total: z.int(), active: z.int() }),
    sales_today: z
      .object({ count: z.int(), total: Money })
      .meta({ description: 'Paid and credit sales since local midnight (Africa/Dar_es_Salaam)' }),
    sync: z.object({
      devices: z.int(),
      devices_seen_today: z.int(),
      pushes_today: z.int().meta({ description: 'Mutations received from tills today' }),
      rejected_today: z.int(),
      open_conflicts: z.int(),
    }),
    outbox: z.object({ pending: z.int(), failed: z.int() }).meta({ description: 'SMS and email messages' }),
    events: z.object({ pending: z.int().meta({ description: 'Events not yet handled by every subscriber' }), failed_deliveries: z.int() }),
  })
  .meta({ id: 'MonitoringOverview' });
export type MonitoringOverview = z.infer<typeof MonitoringOverview>;

export const ActivityEntry = z
  .object({
    id: z.uuid(),
    org_id: z.uuid().nullable(),
    organisation_name: z.string().nullable(),
    store_id: z.uuid().nullable(),
    user_id: z.uuid().nullable(),
    user_name: z.string().nullable(),
    action: z.string().meta({ example: 'admin.user.update' }),
    entity: z.string().nullable(),
    entity_id: z.string().nullable(),
    description: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const ListActivityQuery = AdminOrgQuery.extend({
  action: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Action equal to, or starting with this followed by a dot (`admin` matches `admin.user.update`)' }),
  user_id: z.uuid().optional(),
});
export type ListActivityQuery = z.infer<typeof ListActivityQuery>;
