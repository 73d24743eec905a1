import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './shifts.routes.js';
import { closeShift } from './services/close-shift.js';
import { openShift } from './services/open-shift.js';
import { currentShift, getShift, listShifts } from './services/shifts.js';

export const shiftsRouter: Router = createRouter()
  .openapi(routes.open, async (c) => {
    const { shift, replayed } = await openShift(authedCtx(c), c.req.valid('json'));
    return ok(c, shift, { status: 201, message: replayed ? 'shift already open' : 'shift opened' });
  })
  // Before `{id}`, which would read "current" as an id.
  .openapi(routes.current, async (c) => ok(c, await currentShift(authedCtx(c))))
  .openapi(routes.list, async (c) => {
    const { items, meta } = await listShifts(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.getOne, async (c) => ok(c, await getShift(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.close, async (c) =>
    ok(c, await closeShift(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'shift closed' }),
  );
