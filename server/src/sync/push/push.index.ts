import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import { requireSyncProtocol } from '../protocol-version.js';
import * as routes from './push.routes.js';
import { listConflicts, resolveConflict } from './services/conflicts.js';
import { listDevices, registerDevice, retireDevice, toDevice } from './services/devices.js';
import { pushMutations } from './services/push.js';
import { listRefusals } from './services/refusals.js';

const router = createRouter();
router.use(routes.push.path, requireSyncProtocol);

export const pushRouter: Router = router
  .openapi(routes.registerDevice, async (c) => {
    const { device_id, name } = c.req.valid('json');
    return ok(c, toDevice(await registerDevice(authedCtx(c), device_id, name)), { message: 'device registered' });
  })
  .openapi(routes.listDevices, async (c) => ok(c, await listDevices(authedCtx(c))))
  .openapi(routes.retireDevice, async (c) => ok(c, await retireDevice(authedCtx(c), c.req.valid('param').id), { message: 'till retired' }))
  .openapi(routes.push, async (c) => {
    const ctx = authedCtx(c);
    const started = performance.now();
    const res = await pushMutations(ctx, c.req.valid('json'));
    ctx.metrics.observePush(res.results, (performance.now() - started) / 1000);
    return ok(c, res);
  })
  .openapi(routes.listRefusals, async (c) => {
    const { items, meta } = await listRefusals(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.listConflicts, async (c) => {
    const { items, meta } = await listConflicts(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.resolveConflict, async (c) =>
    ok(c, await resolveConflict(authedCtx(c), c.req.valid('param').id, c.req.valid('json').note), { message: 'conflict resolved' }),
  );
