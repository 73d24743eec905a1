import { csvResponse } from '../../lib/csv.js';
import { createRouter, type Router } from '../../lib/create-router.js';
import { requestLanguage } from '../../lib/language.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './inventory.routes.js';
import { createCategory, deleteCategory, listCategories, updateCategory } from './services/categories.js';
import { exportProducts } from './services/export-products.js';
import { importProducts, previewImport } from './services/import-products.js';
import { listProducts } from './services/list-products.js';
import { createProduct, deleteProduct, getProduct, getProductByCode, updateProduct } from './services/products.js';
import { adjustStock, listAdjustments, listLowStock } from './services/stock.js';
import { createTransfer, listTransfers } from './services/transfers.js';
import { reorderRouter } from './reorder/reorder.index.js';
import { stockTakesRouter } from './stock-takes/stock-takes.index.js';

export const inventoryRouter: Router = createRouter()
  .openapi(routes.listCategories, async (c) => ok(c, await listCategories(authedCtx(c))))
  .openapi(routes.createCategory, async (c) =>
    ok(c, await createCategory(authedCtx(c), c.req.valid('json')), { message: 'category created' }),
  )
  .openapi(routes.updateCategory, async (c) =>
    ok(c, await updateCategory(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'category updated' }),
  )
  .openapi(routes.deleteCategory, async (c) => {
    await deleteCategory(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.listProducts, async (c) => {
    const { items, meta } = await listProducts(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.importProducts, async (c) => {
    const input = c.req.valid('json');
    // zod's words about a cell in the owner's language, as a body's are (lib/language.ts).
    if (input.dry_run) return ok(c, await previewImport(authedCtx(c), input, requestLanguage(c)), { message: 'checked; nothing written' });
    const result = await importProducts(authedCtx(c), input, requestLanguage(c));
    return ok(c, result, { status: 201, message: `${result.created} products imported` });
  })
  .openapi(routes.exportProducts, async (c) => {
    const day = new Date(authedCtx(c).clock.now()).toISOString().slice(0, 10);
    return csvResponse(c, { fileName: `products-${day}.csv`, body: await exportProducts(authedCtx(c)) });
  })
  .openapi(routes.createProduct, async (c) => ok(c, await createProduct(authedCtx(c), c.req.valid('json')), { message: 'product created' }))
  .openapi(routes.getByCode, async (c) => ok(c, await getProductByCode(authedCtx(c), c.req.valid('param').code)))
  .openapi(routes.getProduct, async (c) => ok(c, await getProduct(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.updateProduct, async (c) =>
    ok(c, await updateProduct(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'product updated' }),
  )
  .openapi(routes.deleteProduct, async (c) => {
    await deleteProduct(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.adjustStock, async (c) =>
    ok(c, await adjustStock(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'stock adjusted' }),
  )
  .openapi(routes.listAdjustments, async (c) =>
    ok(c, await listAdjustments(authedCtx(c), c.req.valid('param').id, c.req.valid('query').limit)),
  )
  .openapi(routes.lowStock, async (c) => ok(c, await listLowStock(authedCtx(c))))
  .openapi(routes.createTransfer, async (c) =>
    ok(c, await createTransfer(authedCtx(c), c.req.valid('json')), { message: 'stock transferred' }),
  )
  .openapi(routes.listTransfers, async (c) => {
    const { items, meta } = await listTransfers(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .route('/', stockTakesRouter)
  .route('/', reorderRouter);
