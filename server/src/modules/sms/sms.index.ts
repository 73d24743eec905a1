import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import { receiveDeliveryReports } from './services/delivery-reports.js';
import { getSmsAccount } from './services/sms-account.js';
import * as routes from './sms.routes.js';

export const smsRouter: Router = createRouter()
  .openapi(routes.account, async (c) => ok(c, await getSmsAccount(authedCtx(c))))
  .openapi(routes.reports, async (c) => {
    const { provider, token } = c.req.valid('param');
    const input = { headers: c.req.header(), query: c.req.query(), body: await c.req.text(), contentType: c.req.header('content-type') };
    const result = await receiveDeliveryReports(serviceCtx(c), provider, token, input);
    return ok(c, result, { message: `${result.applied} delivery report(s) applied` });
  });
