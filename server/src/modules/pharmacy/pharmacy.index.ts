import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as batchRoutes from './lots/batches.routes.js';
import * as routes from './addo/addo.routes.js';
import { prescriptionsRouter } from './prescriptions/prescriptions.index.js';
import { pharmacyRegistersRouter } from './registers/registers.index.js';
import { correctBatch, getBatch, listBatches, listExpiring } from './lots/batches.js';
import { listAddoMedicines } from './addo/addo-list.js';

export const pharmacyRouter: Router = createRouter()
  .openapi(routes.listAddoMedicines, async (c) => {
    const { items, meta } = await listAddoMedicines(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(batchRoutes.listBatches, async (c) => {
    const { items, meta } = await listBatches(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(batchRoutes.getBatch, async (c) => ok(c, await getBatch(authedCtx(c), c.req.valid('param').id, c.req.valid('query'))))
  .openapi(batchRoutes.correctBatch, async (c) =>
    ok(c, await correctBatch(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'batch corrected' }),
  )
  .openapi(batchRoutes.listExpiring, async (c) => {
    const { items, meta } = await listExpiring(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .route('/', prescriptionsRouter)
  .route('/', pharmacyRegistersRouter);
