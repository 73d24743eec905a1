import { createRouter, type Router } from '../../lib/create-router.js';
import { NotFoundError } from '../../lib/errors.js';
import { ok } from '../../lib/route.js';
import { BUSINESS_TYPES, findRegion, OUTLET_TYPES, REGIONS } from './meta.data.js';
import * as routes from './meta.routes.js';

export const metaRouter: Router = createRouter()
  .openapi(routes.businessTypes, (c) => ok(c, BUSINESS_TYPES))
  .openapi(routes.regions, (c) => ok(c, REGIONS))
  .openapi(routes.districts, (c) => {
    const region = findRegion(c.req.valid('param').slug);
    if (!region) throw new NotFoundError('region');
    return ok(c, region.districts);
  })
  .openapi(routes.outletTypes, (c) => ok(c, OUTLET_TYPES));
