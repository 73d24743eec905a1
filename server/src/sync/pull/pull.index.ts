import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import { requireSyncProtocol } from '../protocol-version.js';
import * as routes from './pull.routes.js';
import { bootstrapPage } from './services/bootstrap.js';
import { pullChanges } from './services/pull.js';

const router = createRouter();
router.use(routes.pull.path, requireSyncProtocol);
router.use(routes.bootstrap.path, requireSyncProtocol);

export const pullRouter: Router = router
  .openapi(routes.pull, async (c) => ok(c, await pullChanges(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.bootstrap, async (c) => ok(c, await bootstrapPage(authedCtx(c), c.req.valid('query'))));
