import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './stores.routes.js';
import { getStore, listStoreStaff } from './services/read-store.js';
import { listStoresWithKpis, storeStats, storeWeek } from './services/store-kpis.js';
import { createStore, deactivateStore, setStoreStatus, updateStore } from './services/write-store.js';

// `/stores/stats` is registered before `/stores/{id}` so that it is not read as an id.
export const storesRouter: Router = createRouter()
  .openapi(routes.list, async (c) => ok(c, await listStoresWithKpis(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.stats, async (c) => ok(c, await storeStats(authedCtx(c))))
  .openapi(routes.create, async (c) => ok(c, await createStore(authedCtx(c), c.req.valid('json')), { message: 'store created' }))
  .openapi(routes.getOne, async (c) => ok(c, await getStore(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.update, async (c) =>
    ok(c, await updateStore(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'store updated' }),
  )
  .openapi(routes.remove, async (c) =>
    ok(c, await deactivateStore(authedCtx(c), c.req.valid('param').id), { message: 'store deactivated' }),
  )
  .openapi(routes.staff, async (c) => ok(c, await listStoreStaff(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.week, async (c) => ok(c, await storeWeek(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.setStatus, async (c) =>
    ok(c, await setStoreStatus(authedCtx(c), c.req.valid('param').id, c.req.valid('json').status), { message: 'store status updated' }),
  );
