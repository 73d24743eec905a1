import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './accounts.routes.js';
import { getAiCredits } from './services/ai-credits.js';
import { getOrganisation, updateOrganisation } from './services/organisation.js';
import { getProfile, updateMe } from './services/profile.js';
import { switchStore } from './services/switch-store.js';
import { confirmTotp, disableTotp, setupTotp, totpStatus } from './services/totp.js';
import { createOrgUser, deactivateUser, listUsers } from './services/users.js';

export const accountsRouter: Router = createRouter()
  .openapi(routes.getMe, async (c) => ok(c, await getProfile(authedCtx(c))))
  .openapi(routes.patchMe, async (c) => ok(c, await updateMe(authedCtx(c), c.req.valid('json')), { message: 'profile updated' }))
  .openapi(routes.getOrganisation, async (c) => ok(c, await getOrganisation(authedCtx(c))))
  .openapi(routes.patchOrganisation, async (c) =>
    ok(c, await updateOrganisation(authedCtx(c), c.req.valid('json')), { message: 'organisation updated' }),
  )
  .openapi(routes.switchStore, async (c) =>
    ok(c, await switchStore(authedCtx(c), c.req.valid('json').store_id), { message: 'store switched; use the new tokens' }),
  )
  .openapi(routes.listUsers, async (c) => ok(c, await listUsers(authedCtx(c))))
  .openapi(routes.createUser, async (c) =>
    ok(c, await createOrgUser(authedCtx(c), c.req.valid('json')), { message: 'user created; temporary password sent by SMS' }),
  )
  .openapi(routes.deleteUser, async (c) => {
    await deactivateUser(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.aiCredits, async (c) => ok(c, await getAiCredits(authedCtx(c))))
  .openapi(routes.totpStatus, async (c) => ok(c, await totpStatus(authedCtx(c))))
  .openapi(routes.totpSetup, async (c) => ok(c, await setupTotp(authedCtx(c)), { message: 'scan the URI, then confirm with a code' }))
  .openapi(routes.totpVerify, async (c) =>
    ok(c, await confirmTotp(authedCtx(c), c.req.valid('json').code), { message: 'authenticator enabled' }),
  )
  .openapi(routes.totpDisable, async (c) => {
    const { password, code } = c.req.valid('json');
    return ok(c, await disableTotp(authedCtx(c), password, code), { message: 'authenticator disabled' });
  });
