import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import { csvResponse } from '../../lib/csv.js';
import * as routes from './customers.routes.js';
import { eraseCustomer } from './personal-data/erase.js';
import { customerPersonalData, personalDataCsv } from './personal-data/export.js';
import { listCustomerCredits } from './services/customer-credits.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './services/customers.js';

export const customersRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { data, meta } = await listCustomers(authedCtx(c), c.req.valid('query'));
    return ok(c, data, { meta });
  })
  .openapi(routes.create, async (c) => ok(c, await createCustomer(authedCtx(c), c.req.valid('json')), { message: 'customer created' }))
  .openapi(routes.credits, async (c) => ok(c, await listCustomerCredits(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.getOne, async (c) => ok(c, await getCustomer(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateCustomer(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'customer updated' }),
  )
  .openapi(routes.personalData, async (c) => {
    const { id } = c.req.valid('param');
    const data = await customerPersonalData(authedCtx(c), id);
    if (c.req.valid('query').format === 'json') return ok(c, data);
    return csvResponse(c, { fileName: `customer-${id}.csv`, body: personalDataCsv(data) });
  })
  .openapi(routes.erase, async (c) => ok(c, await eraseCustomer(authedCtx(c), c.req.valid('param').id), { message: 'customer erased' }));
