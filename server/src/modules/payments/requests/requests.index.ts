import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { createPaymentRequest, getPaymentRequest } from './payment-requests.js';
import { cancelPaymentRequest, retryPaymentRequest } from './request-actions.js';
import * as routes from './requests.routes.js';

/**
 * Payment requests (push at checkout); mounted by the payments router. A request's story goes on
 * after its answer: the provider's callback (inbox/receive-callback.ts) or the status query
 * (request-jobs.ts) brings the outcome (request-outcome.ts), which books the held sale through the
 * sale-booking port (sale-booking-port.ts).
 */
export const paymentRequestsRouter: Router = createRouter()
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
  );
