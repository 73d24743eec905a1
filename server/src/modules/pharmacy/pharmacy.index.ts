import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './pharmacy.routes.js';
import { prescriptionsRouter } from './prescriptions.index.js';
import { pharmacyRegistersRouter } from './registers.index.js';
import { listAddoMedicines } from './services/addo-list.js';

export const pharmacyRouter: Router = createRouter()
  .openapi(routes.listAddoMedicines, async (c) => {
    const { items, meta } = await listAddoMedicines(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .route('/', prescriptionsRouter)
  .route('/', pharmacyRegistersRouter);
