import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './analytics.routes.js';
import { cashflow } from './services/cashflow.js';
import { customersReport } from './services/customers-report.js';
import { dashboard } from './services/dashboard.js';
import { productsReport } from './services/products-report.js';
import { salesReport } from './services/sales-report.js';
import { overview, paymentMix, summary, topProducts, trend } from './services/summary.js';

export const analyticsRouter: Router = createRouter()
  .openapi(routes.overview, async (c) => ok(c, await overview(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.summary, async (c) => ok(c, await summary(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.trend, async (c) => ok(c, await trend(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.paymentMix, async (c) => ok(c, await paymentMix(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.topProducts, async (c) => ok(c, await topProducts(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.sales, async (c) => ok(c, await salesReport(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.customers, async (c) => ok(c, await customersReport(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.cashflow, async (c) => ok(c, await cashflow(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.dashboard, async (c) => ok(c, await dashboard(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.products, async (c) => {
    const { data, meta } = await productsReport(authedCtx(c), c.req.valid('query'));
    return ok(c, data, { meta });
  });
