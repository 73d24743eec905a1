import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './fiscal.routes.js';
import { registerDevice } from './services/register.js';
import { getFiscalSettings, saveFiscalSettings } from './services/settings.js';
import { listZReports } from './services/z-report-list.js';

export const fiscalRouter: Router = createRouter()
  .openapi(routes.getSettings, async (c) => ok(c, await getFiscalSettings(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.saveSettings, async (c) =>
    ok(c, await saveFiscalSettings(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'fiscal settings saved' }),
  )
  .openapi(routes.register, async (c) => {
    const ctx = authedCtx(c);
    return ok(c, await registerDevice(ctx, ctx.tra, c.req.valid('param').id), { message: 'fiscal device registered with TRA' });
  })
  .openapi(routes.zReports, async (c) => ok(c, await listZReports(authedCtx(c), c.req.valid('param').id, c.req.valid('query').limit)));
