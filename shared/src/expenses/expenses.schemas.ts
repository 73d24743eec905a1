/** Expenses of a store: rent, salaries and the rest, with a summary by category. */
import { z } from 'zod';
import { DateString, Money, MoneyInput, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { PayoutMethod } from '../payment-methods.js';

export const EXPENSE_CATEGORIES = [
  'Rent',
  'Utilities',
  'Salaries',
  'Supplies',
  'Transport',
  'Marketing',
  'Maintenance',
  'Licences & permits',
  'Insurance',
  'Other',
] as const;
export const ExpenseCategory = z.enum(EXPENSE_CATEGORIES).meta({ id: 'ExpenseCategory' });
export type ExpenseCategory = z.infer<typeof ExpenseCategory>;

export const ExpensePaymentMethod = PayoutMethod.meta({ id: 'ExpensePaymentMethod' });
export type ExpensePaymentMethod = z.infer<typeof ExpensePaymentMethod>;

export const Expense = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    title: z.string(),
    category: ExpenseCategory,
    amount: Money,
    payment_method: ExpensePaymentMethod,
    payment_reference: z.string().nullable(),
    notes: z.string().nullable(),
    receipt_url: z.string().nullable(),
    spent_at: Timestamp,
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Expense' });
export type Expense = z.infer<typeof Expense>;

const expenseFields = {
  title: z.string().trim().min(1).max(200),
  category: ExpenseCategory,
  amount: MoneyInput.refine((v) => v > 0, 'must be greater than 0').meta({ description: 'TZS' }),
  payment_method: ExpensePaymentMethod.meta({ description: 'Default Cash' }),
  payment_reference: z.string().trim().max(100).nullable(),
  notes: z.string().trim().max(2000).nullable(),
  receipt_url: z.url().max(2000).nullable(),
  spent_at: z.iso.datetime({ offset: true }).meta({ description: 'When the money was spent; default now' }),
};
export const UpdateExpenseInput = z.object(expenseFields).partial().meta({ id: 'UpdateExpenseInput' });
export const CreateExpenseInput = UpdateExpenseInput.required({ title: true, category: true, amount: true }).meta({
  id: 'CreateExpenseInput',
});
export type UpdateExpenseInput = z.infer<typeof UpdateExpenseInput>;
export type CreateExpenseInput = z.infer<typeof CreateExpenseInput>;

export const ExpenseOrdering = z.enum(['date', '-date', 'amount', '-amount']);
export const ListExpensesQuery = PageQuery.extend({
  search: z.string().trim().max(100).optional().meta({ description: 'Title contains, any case' }),
  category: ExpenseCategory.optional(),
  payment_method: ExpensePaymentMethod.optional(),
  ordering: ExpenseOrdering.default('-date').meta({ description: 'date = spent_at; default -date (newest first)' }),
});
export type ListExpensesQuery = z.infer<typeof ListExpensesQuery>;

export const ExpenseSummaryQuery = z.object({
  date_from: DateString.optional().meta({ description: 'First local day (organisation time zone); default the first day of this month' }),
  date_to: DateString.optional().meta({ description: 'Last local day, inclusive; default today' }),
});
export type ExpenseSummaryQuery = z.infer<typeof ExpenseSummaryQuery>;

export const ExpenseSummary = z
  .object({
    total: Money,
    by_category: z.record(z.string(), Money).meta({ description: 'Every category, 0 where nothing was spent' }),
    count: z.int(),
    date_from: DateString,
    date_to: DateString,
  })
  .meta({ id: 'ExpenseSummary' });
export type ExpenseSummary = z.infer<typeof ExpenseSummary>;
