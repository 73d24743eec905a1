import type { Context } from 'hono';
import type { AppEnv } from '../../../lib/context.js';
import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../../lib/route.js';
import { csvResponse } from '../../../lib/csv.js';
import * as routes from './inbox.routes.js';
import { receiveCollectionCallback } from './receive-callback.js';
import { listReceivedPayments, receivedPaymentsCsv } from './received-payments.js';
import { paymentReconciliation, reconciliationCsv } from './reconciliation.js';

const csv = (c: Context<AppEnv>, f: { fileName: string; text: string }) => csvResponse(c, { fileName: f.fileName, body: f.text });

/** The received-payments inbox, the providers' callbacks into it and the reconciliation; mounted by the payments router. */
export const receivedPaymentsRouter: Router = createRouter()
  .openapi(routes.listReceived, async (c) => {
    const { items, meta } = await listReceivedPayments(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.receivedCsv, async (c) => csv(c, await receivedPaymentsCsv(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.reconciliation, async (c) => ok(c, await paymentReconciliation(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.reconciliationCsv, async (c) => csv(c, await reconciliationCsv(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.callback, async (c) => {
    const headers = Object.fromEntries(c.req.raw.headers.entries());
    const input = { headers, query: c.req.query(), body: await c.req.text(), contentType: c.req.header('content-type') };
    return ok(c, await receiveCollectionCallback(serviceCtx(c), c.req.valid('param').id, input));
  });
