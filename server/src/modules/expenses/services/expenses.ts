/**
 * A store's expenses. `createExpense` is the one way an expense is made: POST /expenses and the
 * sync mutation `expense.create` both call it.
 */
import { EXPENSE_CATEGORIES, newId, fromCents, toCents } from '@duka/shared';
import type {
  CreateExpenseInput,
  Expense,
  ExpenseSummary,
  ExpenseSummaryQuery,
  ListExpensesQuery,
  PageMeta,
  SaleConflict,
  UpdateExpenseInput,
} from '@duka/shared';
import type { Updateable } from 'kysely';
import { containsText } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { addDays, localDate, startOfLocalDay } from '../../../lib/time.js';
import { bookerOf, type NamedShift, orgTimezone, shiftFor } from '../../tenancy/tenancy.exports.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { findExpense, insertExpense, spendingByCategory, toExpense, updateExpenseRow } from '../expenses.queries.js';
import type { ExpenseTable } from '../../../db/tables/expenses.table.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

const ORDERING = {
  date: ['spent_at', 'asc'],
  '-date': ['spent_at', 'desc'],
  amount: ['amount', 'asc'],
  '-amount': ['amount', 'desc'],
} as const;

function columns(input: UpdateExpenseInput): Updateable<ExpenseTable> {
  const out: Updateable<ExpenseTable> = {
    title: input.title,
    category: input.category,
    amount: input.amount === undefined ? undefined : toCents(input.amount),
    payment_method: input.payment_method,
    payment_reference: input.payment_reference,
    notes: input.notes,
    receipt_url: input.receipt_url,
    spent_at: input.spent_at === undefined ? undefined : Date.parse(input.spent_at),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

async function requireExpense(ctx: AuthedContext, id: string) {
  const row = await findExpense(ctx.db, requireStore(ctx), id);
  if (!row) throw new NotFoundError('expense');
  return row;
}

export async function listExpenses(ctx: AuthedContext, q: ListExpensesQuery): Promise<{ items: Expense[]; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  const search = q.search?.trim();
  const base = ctx.db
    .selectFrom('expenses')
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .$if(!!search, (qb) => qb.where(containsText(ctx.dialect, 'title', search!)))
    .$if(!!q.category, (qb) => qb.where('category', '=', q.category!))
    .$if(!!q.payment_method, (qb) => qb.where('payment_method', '=', q.payment_method!));
  const [column, direction] = ORDERING[q.ordering];
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy(column, direction).orderBy('id', direction), q);
  return { items: rows.map(toExpense), meta };
}

export const getExpense = async (ctx: AuthedContext, id: string): Promise<Expense> => toExpense(await requireExpense(ctx, id));

/**
 * Record an expense in the active store. `id` is the till's own id for an expense made offline:
 * the same id again answers the expense already made (a till that re-sends it under a new
 * mutation id gets the first one back); an id already used for something else is 409 CONFLICT.
 */
export async function createExpense(
  ctx: AuthedContext,
  input: CreateExpenseInput,
  opts: { id?: string; spentAt?: number } & NamedShift = {},
): Promise<Expense> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const id = opts.id ?? newId();
    const existing = async () => {
      const found = await findExpense(tx.db, { orgId, storeId }, id);
      if (!found) throw new ConflictError('this expense id is already in use');
      return toExpense(found);
    };
    // A till's shift conflict is the owner's to see only once the expense is really written.
    const conflicts: SaleConflict[] = [];
    const shiftId = await shiftFor(tx.db, { orgId, storeId }, bookerOf(tx.actor!, opts.deviceId), { named: opts.shiftId, conflicts });
    const row = await insertExpense(tx.db, {
      id,
      orgId,
      storeId,
      spentAt: opts.spentAt ?? now,
      fields: columns(input) as { title: string; category: string; amount: number },
      createdBy: tx.actor!.userId,
      shiftId,
      now,
    });
    if (!row) return existing();
    opts.conflicts?.push(...conflicts);
    await recordAudit(tx, {
      action: 'expense.create',
      description: `Recorded expense ${row.title} (${row.category}) TZS ${fromCents(row.amount)}`,
      entity: 'expense',
      entityId: id,
    });
    return toExpense(row);
  });
}

/** POST /expenses with an optional Idempotency-Key (design §3). */
export async function createExpenseOnce(
  ctx: AuthedContext,
  input: CreateExpenseInput,
  key: string | undefined,
): Promise<{ expense: Expense; replayed: boolean }> {
  const answer = await withIdempotency(ctx, { key, route: 'POST /expenses', body: input }, async (tx) => ({
    status: 200,
    body: await createExpense(tx, input),
  }));
  return { expense: answer.body as Expense, replayed: answer.replayed };
}

export async function updateExpense(ctx: AuthedContext, id: string, input: UpdateExpenseInput): Promise<Expense> {
  const before = await requireExpense(ctx, id);
  const set = columns(input);
  if (!Object.entries(set).some(([k, v]) => before[k as keyof typeof before] !== v)) return toExpense(before);
  return withTransaction(ctx, async (tx) => {
    const row = await updateExpenseRow(tx.db, before, set, tx.clock.now());
    if (!row) throw new NotFoundError('expense');
    await recordAudit(tx, { action: 'expense.update', description: `Updated expense ${row.title}`, entity: 'expense', entityId: id });
    return toExpense(row);
  });
}

export async function deleteExpense(ctx: AuthedContext, id: string): Promise<void> {
  const before = await requireExpense(ctx, id);
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .deleteFrom('expenses')
      .where('org_id', '=', before.org_id)
      .where('id', '=', id)
      .where('store_id', '=', before.store_id)
      .execute();
    await recordAudit(tx, {
      action: 'expense.delete',
      description: `Deleted expense ${before.title} (TZS ${fromCents(before.amount)})`,
      entity: 'expense',
      entityId: id,
    });
  });
}

/**
 * The active store's spending over local days `date_from`..`date_to` (both included, organisation
 * time zone); by default this month so far: the 1st to today.
 */
export async function expenseSummary(ctx: AuthedContext, q: ExpenseSummaryQuery): Promise<ExpenseSummary> {
  const { orgId, storeId } = requireStore(ctx);
  const tz = await orgTimezone(ctx.db, orgId);
  const today = localDate(ctx.clock.now(), tz);
  const dateFrom = q.date_from ?? `${(q.date_to ?? today).slice(0, 7)}-01`;
  const dateTo = q.date_to ?? (q.date_from && q.date_from > today ? q.date_from : today);
  if (dateTo < dateFrom) throw new ValidationError('date_to', 'must not be before date_from');
  const rows = await spendingByCategory(ctx.db, { orgId, storeId }, startOfLocalDay(dateFrom, tz), startOfLocalDay(addDays(dateTo, 1), tz));
  const byCategory: Record<string, number> = Object.fromEntries(EXPENSE_CATEGORIES.map((c) => [c, 0]));
  let total = 0;
  let count = 0;
  for (const r of rows) {
    const cents = Number(r.total);
    byCategory[r.category] = fromCents(cents);
    total += cents;
    count += Number(r.n);
  }
  return { total: fromCents(total), by_category: byCategory, count, date_from: dateFrom, date_to: dateTo };
}
