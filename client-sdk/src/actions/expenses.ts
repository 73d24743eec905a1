/** Money the shop spent (rent, transport, …), recorded at the till and queued as `expense.create`. */
import { CreateExpenseInput, newId } from '@duka/shared';
import { enqueue } from '../queue.js';
import { type ActionCtx, invalid } from './context.js';

export interface ExpenseReceipt extends CreateExpenseInput {
  /** The id the server will keep for it. */
  id: string;
  spent_at: string;
}

export async function recordExpense(ctx: ActionCtx, input: CreateExpenseInput): Promise<ExpenseReceipt> {
  const parsed = CreateExpenseInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const expense: ExpenseReceipt = { ...parsed.data, id: newId(), spent_at: parsed.data.spent_at ?? new Date(ctx.now()).toISOString() };
  await ctx.db.transaction().execute((trx) => enqueue(trx, 'expense.create', { ...expense }, ctx.now()));
  ctx.queued();
  return expense;
}
