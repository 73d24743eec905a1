import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './expenses.routes.js';
import { createExpenseOnce, deleteExpense, expenseSummary, getExpense, listExpenses, updateExpense } from './services/expenses.js';

export const expensesRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { items, meta } = await listExpenses(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.create, async (c) => {
    const { expense, replayed } = await createExpenseOnce(authedCtx(c), c.req.valid('json'), c.req.valid('header')['idempotency-key']);
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, expense, { message: replayed ? 'expense already recorded' : 'expense recorded' });
  })
  .openapi(routes.summary, async (c) => ok(c, await expenseSummary(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.getOne, async (c) => ok(c, await getExpense(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateExpense(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'expense updated' }),
  )
  .openapi(routes.remove, async (c) => {
    await deleteExpense(authedCtx(c), c.req.valid('param').id);
    return ok(c, null, { message: 'expense deleted' });
  });
