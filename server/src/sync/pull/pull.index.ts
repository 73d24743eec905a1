import { NEXT_PAGE_HEADER } from '@duka/shared';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, okSerialised } from '../../lib/route.js';
import { requireSyncProtocol } from '../protocol-version.js';
import * as routes from './pull.routes.js';
import { bootstrapAnswer } from './services/bootstrap.js';
import { pullChanges } from './services/pull.js';

const router = createRouter();
router.use(routes.pull.path, requireSyncProtocol);
router.use(routes.bootstrap.path, requireSyncProtocol);

export const pullRouter: Router = router
  .openapi(routes.pull, async (c) => {
    const ctx = authedCtx(c);
    const page = await pullChanges(ctx, c.req.valid('query'));
    ctx.metrics.syncRows.inc({ kind: 'pull' }, page.changes.length);
    return ok(c, page);
  })
  .openapi(routes.bootstrap, async (c) => {
    const ctx = authedCtx(c);
    const page = await bootstrapAnswer(ctx, c.req.valid('query'));
    ctx.metrics.syncRows.inc({ kind: 'bootstrap' }, page.rows);
    if (page.next) c.header(NEXT_PAGE_HEADER, page.next);
    return okSerialised(c, page.json);
  })
  .openapi(routes.ping, (c) => ok(c, { status: 'ok' as const }));
