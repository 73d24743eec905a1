import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './admin.routes.js';
import { monitoringHealth, platformDashboard } from './services/platform-stats.js';

export const adminRouter = (ping: () => Promise<void>): Router =>
  createRouter()
    .openapi(routes.dashboard, async (c) => ok(c, await platformDashboard(authedCtx(c))))
    .openapi(routes.monitoringHealth, async (c) => ok(c, await monitoringHealth(authedCtx(c), ping)));
