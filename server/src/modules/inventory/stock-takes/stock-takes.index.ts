import { csvResponse } from '../../../lib/csv.js';
import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { applyStockTake } from './apply.js';
import { stockTakeCsv } from './stock-take-csv.js';
import * as routes from './stock-takes.routes.js';
import { addStockTakeCounts, cancelStockTake, getStockTake, listStockTakes, openStockTake } from './stock-takes.js';

export const stockTakesRouter: Router = createRouter()
  .openapi(routes.openStockTake, async (c) =>
    ok(c, await openStockTake(authedCtx(c), c.req.valid('json')), { message: 'stock take opened' }),
  )
  .openapi(routes.listStockTakes, async (c) => ok(c, await listStockTakes(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.getStockTake, async (c) => ok(c, await getStockTake(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.exportStockTake, async (c) => {
    const take = await getStockTake(authedCtx(c), c.req.valid('param').id);
    return csvResponse(c, { fileName: `stock-take-${take.id}.csv`, body: stockTakeCsv(take) });
  })
  .openapi(routes.addStockTakeCounts, async (c) =>
    ok(c, await addStockTakeCounts(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'counts recorded' }),
  )
  .openapi(routes.applyStockTake, async (c) =>
    ok(c, await applyStockTake(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'stock take applied' }),
  )
  .openapi(routes.cancelStockTake, async (c) =>
    ok(c, await cancelStockTake(authedCtx(c), c.req.valid('param').id), { message: 'stock take cancelled' }),
  );
