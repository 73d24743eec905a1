import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { draftOrdersFromSuggestions } from './from-suggestions.js';
import { cancelPurchaseOrder, createPurchaseOrder, getPurchaseOrder, listPurchaseOrders } from './purchase-orders.js';
import * as routes from './purchase-orders.routes.js';
import { receivePurchaseOrder } from './receive.js';
import { sendPurchaseOrder } from './send.js';

/** `from-suggestions` before `{id}`. */
export const purchaseOrdersRouter: Router = createRouter()
  .openapi(routes.draftOrdersFromSuggestions, async (c) => {
    const out = await draftOrdersFromSuggestions(authedCtx(c), c.req.valid('json'));
    return ok(c, out, { message: `${out.orders.length} draft purchase orders made` });
  })
  .openapi(routes.createPurchaseOrder, async (c) =>
    ok(c, await createPurchaseOrder(authedCtx(c), c.req.valid('json')), { message: 'purchase order drafted' }),
  )
  .openapi(routes.listPurchaseOrders, async (c) => {
    const { items, meta } = await listPurchaseOrders(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.getPurchaseOrder, async (c) => ok(c, await getPurchaseOrder(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.sendPurchaseOrder, async (c) =>
    ok(c, await sendPurchaseOrder(authedCtx(c), c.req.valid('param').id, c.req.valid('json') ?? {}), { message: 'purchase order sent' }),
  )
  .openapi(routes.receivePurchaseOrder, async (c) =>
    ok(c, await receivePurchaseOrder(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'delivery received' }),
  )
  .openapi(routes.cancelPurchaseOrder, async (c) =>
    ok(c, await cancelPurchaseOrder(authedCtx(c), c.req.valid('param').id), { message: 'purchase order cancelled' }),
  );
