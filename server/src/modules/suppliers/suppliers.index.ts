import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as deliveries from './deliveries.routes.js';
import { purchaseOrdersRouter } from './purchase-orders/purchase-orders.index.js';
import * as payments from './supplier-payments.routes.js';
import * as routes from './suppliers.routes.js';
import { createDeliveryOnce, deleteDelivery, getDelivery, listDeliveries, updateDelivery } from './services/deliveries.js';
import { listSupplierPayments, payDeliveryOnce, paySupplierOnce } from './services/supplier-payments.js';
import { createSupplier, deleteSupplier, getSupplier, listSuppliers, supplierStats, updateSupplier } from './services/suppliers.js';

/** Fixed paths (stats, purchase orders, deliveries, payments) are registered before `/suppliers/{id}`. */
export const suppliersRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { items, meta } = await listSuppliers(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.create, async (c) => ok(c, await createSupplier(authedCtx(c), c.req.valid('json')), { message: 'supplier created' }))
  .openapi(routes.stats, async (c) => ok(c, await supplierStats(authedCtx(c))))
  .route('/', purchaseOrdersRouter)
  .openapi(deliveries.list, async (c) => {
    const { items, meta } = await listDeliveries(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(deliveries.create, async (c) => {
    const body = c.req.valid('json');
    const { delivery, replayed } = await createDeliveryOnce(
      authedCtx(c),
      body.supplier_id,
      body,
      c.req.valid('header')['idempotency-key'],
      'POST /suppliers/deliveries',
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, delivery, { message: 'delivery recorded' });
  })
  .openapi(payments.list, async (c) => {
    const { items, meta } = await listSupplierPayments(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(deliveries.getOne, async (c) => ok(c, await getDelivery(authedCtx(c), c.req.valid('param').id)))
  .openapi(deliveries.patch, async (c) =>
    ok(c, await updateDelivery(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'delivery updated' }),
  )
  .openapi(deliveries.remove, async (c) => {
    await deleteDelivery(authedCtx(c), c.req.valid('param').id);
    return ok(c, null, { message: 'delivery deleted' });
  })
  .openapi(payments.payDelivery, async (c) => {
    const { payment, replayed } = await payDeliveryOnce(
      authedCtx(c),
      c.req.valid('param').id,
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, payment, { message: replayed ? 'payment already recorded' : 'payment recorded' });
  })
  .openapi(routes.getOne, async (c) => ok(c, await getSupplier(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateSupplier(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'supplier updated' }),
  )
  .openapi(routes.remove, async (c) => {
    await deleteSupplier(authedCtx(c), c.req.valid('param').id);
    return ok(c, null, { message: 'supplier deleted' });
  })
  .openapi(payments.listForSupplier, async (c) => {
    const { items, meta } = await listSupplierPayments(authedCtx(c), c.req.valid('query'), c.req.valid('param').id);
    return ok(c, items, { meta });
  })
  .openapi(payments.paySupplier, async (c) => {
    const { payment, replayed } = await paySupplierOnce(
      authedCtx(c),
      c.req.valid('param').id,
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, payment, { message: replayed ? 'payment already recorded' : 'payment recorded' });
  })
  .openapi(deliveries.listForSupplier, async (c) => {
    const { items, meta } = await listDeliveries(authedCtx(c), c.req.valid('query'), c.req.valid('param').id);
    return ok(c, items, { meta });
  })
  .openapi(deliveries.createForSupplier, async (c) => {
    const id = c.req.valid('param').id;
    const { delivery, replayed } = await createDeliveryOnce(
      authedCtx(c),
      id,
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
      `POST /suppliers/${id}/deliveries`,
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, delivery, { message: 'delivery recorded' });
  });
