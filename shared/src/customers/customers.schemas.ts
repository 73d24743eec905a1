import { z } from 'zod';
import { DateString, Email, Money, MoneyInput, Phone, QueryBool, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';

export const CustomerSegment = z.enum(['New', 'Regular', 'VIP', 'Occasional']).meta({
  id: 'CustomerSegment',
  description:
    'Recomputed after each sale: VIP (top 10 % by spend) > Regular (3+ purchases in 90 days) > New (first purchase within 30 days) > Occasional',
});
export type CustomerSegment = z.infer<typeof CustomerSegment>;

export const Customer = z
  .object({
    id: z.uuid(),
    name: z.string(),
    phone: z.string().nullable().meta({ description: 'E.164, e.g. +255712345678' }),
    email: z.string().nullable(),
    segment: CustomerSegment,
    credit_limit: Money.meta({ description: 'TZS; 0 means no limit' }),
    notes: z.string().nullable(),
    is_active: z.boolean(),
    total_spend: Money.meta({ description: 'Paid and credit sales' }),
    visit_count: z.int().meta({ description: 'Paid and credit sales' }),
    outstanding_balance: Money.meta({ description: 'Still owed across all credit tabs' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

const customerFields = {
  name: z.string().trim().min(1).max(200),
  phone: Phone.nullable(),
  email: Email.nullable(),
  segment: CustomerSegment,
  credit_limit: MoneyInput.meta({ description: 'TZS, 0 = no limit' }),
  notes: z.string().trim().max(2000).nullable(),
  is_active: z.boolean(),
};
export const UpdateCustomerInput = z.object(customerFields).partial().meta({ id: 'UpdateCustomerInput' });
export const CreateCustomerInput = UpdateCustomerInput.required({ name: true }).meta({ id: 'CreateCustomerInput' });
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerInput>;
export type CreateCustomerInput = z.infer<typeof CreateCustomerInput>;

export const ListCustomersQuery = PageQuery.extend({
  search: z.string().trim().max(100).optional().meta({ description: 'Name, email or phone (`0…` or `+255…`) contains, any case' }),
  segment: CustomerSegment.optional(),
  has_credit: QueryBool.optional().meta({ description: 'true: owes something now; false: owes nothing' }),
});
export type ListCustomersQuery = z.infer<typeof ListCustomersQuery>;

export const CustomerList = z.object({ items: z.array(Customer), total: z.int() }).meta({ id: 'CustomerList' });
export type CustomerList = z.infer<typeof CustomerList>;

export const CustomerCreditsQuery = z.object({
  overdue: QueryBool.optional().meta({ description: 'true: only customers with an overdue tab; false: only those with none' }),
});
export type CustomerCreditsQuery = z.infer<typeof CustomerCreditsQuery>;

export const CustomerWithCredit = Customer.extend({
  total_outstanding: Money,
  open_tabs: z.int().meta({ description: 'Tabs open or partially paid' }),
  overdue_count: z.int().meta({ description: 'Tabs with a balance whose due date has passed (organisation time zone)' }),
  oldest_due_date: DateString.nullable(),
}).meta({ id: 'CustomerWithCredit' });
export type CustomerWithCredit = z.infer<typeof CustomerWithCredit>;
