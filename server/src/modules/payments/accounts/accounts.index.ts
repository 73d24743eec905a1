import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import * as routes from './accounts.routes.js';
import {
  createCollectionAccount,
  deactivateCollectionAccount,
  getCollectionAccount,
  listCollectionAccounts,
  rotateCallback,
  updateCollectionAccount,
} from './collection-accounts.js';

/** The owner's collection accounts; mounted by the payments router. */
export const collectionAccountsRouter: Router = createRouter()
  .openapi(routes.listAccounts, async (c) => ok(c, await listCollectionAccounts(authedCtx(c))))
  .openapi(routes.createAccount, async (c) =>
    ok(c, await createCollectionAccount(authedCtx(c), c.req.valid('json')), { status: 201, message: 'collection account added' }),
  )
  .openapi(routes.getAccount, async (c) => ok(c, await getCollectionAccount(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.updateAccount, async (c) =>
    ok(c, await updateCollectionAccount(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      message: 'collection account updated',
    }),
  )
  .openapi(routes.deactivateAccount, async (c) =>
    ok(c, await deactivateCollectionAccount(authedCtx(c), c.req.valid('param').id), { message: 'collection account deactivated' }),
  )
  .openapi(routes.rotateCallback, async (c) =>
    ok(c, await rotateCallback(authedCtx(c), c.req.valid('param').id), { message: 'callback URL rotated: paste the new one' }),
  );
