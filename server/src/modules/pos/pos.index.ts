import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './pos.routes.js';
import { exchangeOnce } from './services/exchange.js';
import { returnOnce } from './services/returns.js';
import { receiptMessage, sendReceipt } from './services/receipt.js';
import { refundSaleOnce, voidSale } from './services/sale-state.js';
import { sellOnline } from './services/sell-online.js';
import { getTransaction, hourlySummary, listTransactions, posSummary } from './services/transactions.js';

export const posRouter: Router = createRouter()
  .openapi(routes.createSale, async (c) => {
    const { body, keyReplayed } = await sellOnline(authedCtx(c), c.req.valid('json'), c.req.valid('header')['idempotency-key']);
    const replayed = keyReplayed || body.replayed;
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, body.sale, { status: 201, message: replayed ? 'sale already recorded' : 'sale recorded' });
  })
  .openapi(routes.listTransactions, async (c) => {
    const { items, meta } = await listTransactions(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.getTransaction, async (c) => ok(c, await getTransaction(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.refund, async (c) => {
    const { body, replayed } = await refundSaleOnce(
      authedCtx(c),
      c.req.valid('param').id,
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, body, { message: body.status === 'refunded' ? 'sale refunded' : 'part of the sale refunded' });
  })
  .openapi(routes.voidSale, async (c) => {
    const { reason, shift_id } = c.req.valid('json');
    return ok(c, await voidSale(authedCtx(c), c.req.valid('param').id, reason, { shiftId: shift_id }), { message: 'sale voided' });
  })
  .openapi(routes.receipt, async (c) => {
    const result = await sendReceipt(authedCtx(c), c.req.valid('param').id, c.req.valid('json'));
    return ok(c, result, { message: receiptMessage(result) });
  })
  .openapi(routes.summary, async (c) => ok(c, await posSummary(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.hourly, async (c) => ok(c, await hourlySummary(authedCtx(c), c.req.valid('query').date)))
  .openapi(routes.createExchange, async (c) => {
    const { body, replayed } = await exchangeOnce(authedCtx(c), c.req.valid('json'), c.req.valid('header')['idempotency-key']);
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, body, { status: 201, message: 'exchange recorded' });
  })
  .openapi(routes.createReturn, async (c) => {
    const { body, replayed } = await returnOnce(authedCtx(c), c.req.valid('json'), c.req.valid('header')['idempotency-key']);
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, body, { status: 201, message: 'return recorded' });
  });
