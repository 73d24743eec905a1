import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import * as routes from './billing.routes.js';
import { listBillingEvents } from './services/admin-billing.js';
import { checkout } from './services/checkout.js';
import { receiveCallback } from './services/subscription-payments.js';
import { createPlan, listActivePlans, listPlansForAdmin, retirePlan, updatePlan } from './services/plans.js';
import { cancelSubscription, currentSubscription, listInvoices } from './services/subscription.js';

export const billingRouter: Router = createRouter()
  .openapi(routes.listPlans, async (c) => ok(c, await listActivePlans(authedCtx(c))))
  .openapi(routes.current, async (c) => ok(c, await currentSubscription(authedCtx(c))))
  .openapi(routes.checkout, async (c) =>
    ok(c, await checkout(authedCtx(c), c.req.valid('json')), { status: 202, message: 'checkout started' }),
  )
  .openapi(routes.invoices, async (c) => {
    const { items, meta } = await listInvoices(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.cancel, async (c) => ok(c, await cancelSubscription(authedCtx(c)), { message: 'subscription ends at the period end' }))
  .openapi(routes.callback, async (c) => {
    const headers = Object.fromEntries(c.req.raw.headers.entries());
    const input = { headers, query: c.req.query(), body: await c.req.text(), contentType: c.req.header('content-type') };
    return ok(c, await receiveCallback(serviceCtx(c), c.req.valid('param').provider, input));
  })
  .openapi(routes.adminHistory, async (c) => {
    const { items, meta } = await listBillingEvents(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.adminListPlans, async (c) => ok(c, await listPlansForAdmin(authedCtx(c))))
  .openapi(routes.adminCreatePlan, async (c) =>
    ok(c, await createPlan(authedCtx(c), c.req.valid('json')), { status: 201, message: 'plan created' }),
  )
  .openapi(routes.adminUpdatePlan, async (c) =>
    ok(c, await updatePlan(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'plan updated' }),
  )
  .openapi(routes.adminRetirePlan, async (c) =>
    ok(c, await retirePlan(authedCtx(c), c.req.valid('param').id), { message: 'plan retired' }),
  );
