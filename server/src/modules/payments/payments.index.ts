import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context.js';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import { csvResponse } from '../../lib/csv.js';
import * as routes from './payments.routes.js';
import {
  createCollectionAccount,
  deactivateCollectionAccount,
  getCollectionAccount,
  listCollectionAccounts,
  rotateCallback,
  updateCollectionAccount,
} from './services/collection-accounts.js';
import { createPaymentRequest, getPaymentRequest } from './services/payment-requests.js';
import { receiveCollectionCallback } from './services/receive-callback.js';
import { cancelPaymentRequest, retryPaymentRequest } from './services/request-actions.js';
import { listReceivedPayments, receivedPaymentsCsv } from './services/received-payments.js';
import { paymentReconciliation, reconciliationCsv } from './services/reconciliation.js';

const csv = (c: Context<AppEnv>, f: { fileName: string; text: string }) => csvResponse(c, { fileName: f.fileName, body: f.text });

export const paymentsRouter: Router = createRouter()
  .openapi(routes.listAccounts, async (c) => ok(c, await listCollectionAccounts(authedCtx(c))))
  .openapi(routes.createAccount, async (c) =>
    ok(c, await createCollectionAccount(authedCtx(c), c.req.valid('json')), { status: 201, message: 'collection account added' }),
  )
  .openapi(routes.getAccount, async (c) => ok(c, await getCollectionAccount(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.updateAccount, async (c) =>
    ok(c, await updateCollectionAccount(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      message: 'collection account updated',
    }),
  )
  .openapi(routes.deactivateAccount, async (c) =>
    ok(c, await deactivateCollectionAccount(authedCtx(c), c.req.valid('param').id), { message: 'collection account deactivated' }),
  )
  .openapi(routes.rotateCallback, async (c) =>
    ok(c, await rotateCallback(authedCtx(c), c.req.valid('param').id), { message: 'callback URL rotated: paste the new one' }),
  )
  .openapi(routes.listReceived, async (c) => {
    const { items, meta } = await listReceivedPayments(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.receivedCsv, async (c) => csv(c, await receivedPaymentsCsv(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.createRequest, async (c) => {
    const { request, created } = await createPaymentRequest(authedCtx(c), c.req.valid('json'));
    return ok(c, request, created ? { status: 201, message: "asked the customer's phone" } : { message: 'payment request already made' });
  })
  .openapi(routes.getRequest, async (c) => ok(c, await getPaymentRequest(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.cancelRequest, async (c) =>
    ok(c, await cancelPaymentRequest(authedCtx(c), c.req.valid('param').id), { message: 'payment request cancelled' }),
  )
  .openapi(routes.retryRequest, async (c) =>
    ok(c, await retryPaymentRequest(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      message: "asked the customer's phone again",
    }),
  )
  .openapi(routes.reconciliation, async (c) => ok(c, await paymentReconciliation(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.reconciliationCsv, async (c) => csv(c, await reconciliationCsv(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.callback, async (c) => {
    const headers = Object.fromEntries(c.req.raw.headers.entries());
    const input = { headers, query: c.req.query(), body: await c.req.text(), contentType: c.req.header('content-type') };
    return ok(c, await receiveCollectionCallback(serviceCtx(c), c.req.valid('param').id, input));
  });
