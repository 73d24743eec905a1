import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './staff.routes.js';
import { createStaff } from './services/create-staff.js';
import { deactivateStaff } from './services/deactivate-staff.js';
import { getStaff, listStaff } from './services/list-staff.js';
import { resetStaffPassword } from './services/reset-password.js';
import { getStaffActivity } from './services/staff-activity.js';
import { getStaffKpis, getStaffStats } from './services/staff-stats.js';
import { setStaffPermissions, setStaffShift, updateStaff } from './services/update-staff.js';

export const staffRouter: Router = createRouter()
  .openapi(routes.kpis, async (c) => ok(c, await getStaffKpis(authedCtx(c))))
  .openapi(routes.list, async (c) => {
    const { data, meta } = await listStaff(authedCtx(c), c.req.valid('query'));
    return ok(c, data, { meta });
  })
  .openapi(routes.create, async (c) =>
    ok(c, await createStaff(authedCtx(c), c.req.valid('json')), { message: 'staff member added; temporary password sent by SMS' }),
  )
  .openapi(routes.getOne, async (c) => ok(c, await getStaff(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateStaff(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'staff member updated' }),
  )
  .openapi(routes.remove, async (c) =>
    ok(c, await deactivateStaff(authedCtx(c), c.req.valid('param').id), { message: 'staff member deactivated' }),
  )
  .openapi(routes.stats, async (c) => ok(c, await getStaffStats(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.activity, async (c) => ok(c, await getStaffActivity(authedCtx(c), c.req.valid('param').id, c.req.valid('query').date)))
  .openapi(routes.shift, async (c) =>
    ok(c, await setStaffShift(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'shift updated' }),
  )
  .openapi(routes.permissions, async (c) =>
    ok(c, await setStaffPermissions(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      message: 'permissions updated; they apply at the next token refresh',
    }),
  )
  .openapi(routes.resetPassword, async (c) =>
    ok(c, await resetStaffPassword(authedCtx(c), c.req.valid('param').id), {
      message: 'temporary password sent by SMS; the member was signed out',
    }),
  );
