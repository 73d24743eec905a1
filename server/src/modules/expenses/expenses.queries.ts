import { fromCents } from '@duka/shared';
import type { Expense, ExpenseCategory, ExpensePaymentMethod } from '@duka/shared';
import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { ExpenseRow, ExpenseTable } from '../../db/tables/expenses.table.js';

/** An expense of `storeId` only: another store's or organisation's id is not found. */
export function findExpense(db: Kysely<Database>, scope: { orgId: string; storeId: string }, id: string): Promise<ExpenseRow | undefined> {
  return db
    .selectFrom('expenses')
    .selectAll()
    .where('org_id', '=', scope.orgId)
    .where('store_id', '=', scope.storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The expense as read (`before`) with `set` applied; undefined when it is gone meanwhile. */
export function updateExpenseRow(
  db: Kysely<Database>,
  before: Pick<ExpenseRow, 'id' | 'org_id' | 'store_id'>,
  set: Updateable<ExpenseTable>,
  now: number,
): Promise<ExpenseRow | undefined> {
  return db
    .updateTable('expenses')
    .set({ ...set, updated_at: now })
    .where('org_id', '=', before.org_id)
    .where('id', '=', before.id)
    .where('store_id', '=', before.store_id)
    .returningAll()
    .executeTakeFirst();
}

export function toExpense(row: ExpenseRow): Expense {
  return {
    id: row.id,
    store_id: row.store_id,
    title: row.title,
    category: row.category as ExpenseCategory,
    amount: fromCents(Number(row.amount)),
    payment_method: row.payment_method as ExpensePaymentMethod,
    payment_reference: row.payment_reference,
    notes: row.notes,
    receipt_url: row.receipt_url,
    spent_at: iso(Number(row.spent_at)),
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** Spending of a store in [from, to) by category, in cents. */
export function spendingByCategory(db: Kysely<Database>, scope: { orgId: string; storeId: string }, from: number, to: number) {
  return db
    .selectFrom('expenses')
    .where('org_id', '=', scope.orgId)
    .where('store_id', '=', scope.storeId)
    .where('spent_at', '>=', from)
    .where('spent_at', '<', to)
    .groupBy('category')
    .select((eb) => ['category', eb.fn.sum<number>('amount').as('total'), eb.fn.countAll<number>().as('n')])
    .execute();
}

/**
 * A new expense (paid in cash, unless `fields` says otherwise), or nothing when `id` is already
 * taken: of two requests with one client id at once, the second finds the first's row.
 */
export function insertExpense(
  db: Kysely<Database>,
  e: {
    id: string;
    orgId: string;
    storeId: string;
    spentAt: number;
    fields: Updateable<ExpenseTable> & { title: string; category: string; amount: number };
    createdBy: string | null;
    shiftId: string | null;
    now: number;
  },
): Promise<ExpenseRow | undefined> {
  return db
    .insertInto('expenses')
    .values({
      id: e.id,
      org_id: e.orgId,
      store_id: e.storeId,
      payment_method: 'Cash',
      payment_reference: null,
      notes: null,
      receipt_url: null,
      spent_at: e.spentAt,
      ...e.fields,
      created_by: e.createdBy,
      shift_id: e.shiftId,
      created_at: e.now,
      updated_at: e.now,
    })
    .onConflict((oc) => oc.columns(['org_id', 'id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
