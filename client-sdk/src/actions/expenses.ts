/** Money the shop spent (rent, transport, …), recorded at the till and queued as `expense.create`. */
import { CreateExpenseInput, newId, PayoutMethod, toCents } from '@duka/shared';
import { enqueue } from '../queue.js';
import { type ActionCtx, invalid } from './context.js';
import { shiftMovement } from '../local/shift-movements.js';

export interface ExpenseReceipt extends CreateExpenseInput {
  /** The id the server will keep for it. */
  id: string;
  spent_at: string;
}

export async function recordExpense(ctx: ActionCtx, input: CreateExpenseInput): Promise<ExpenseReceipt> {
  const parsed = CreateExpenseInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const expense: ExpenseReceipt = { ...parsed.data, id: newId(), spent_at: parsed.data.spent_at ?? new Date(ctx.now()).toISOString() };
  await ctx.db.transaction().execute(async (trx) => {
    const method = expense.payment_method ?? PayoutMethod.enum.Cash;
    const inShift = await shiftMovement(trx, { kind: 'payout', method, amount: toCents(expense.amount), at: ctx.now() });
    const payload = { ...expense, ...(inShift.shift_id ? { shift_id: inShift.shift_id } : {}) };
    await enqueue(trx, 'expense.create', payload, ctx.now(), { movements: inShift.movements });
  });
  ctx.queued();
  return expense;
}
