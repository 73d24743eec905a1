import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { csvResponse } from '../../../lib/csv.js';
import * as routes from './prescriptions.routes.js';
import { correctPrescription, getPrescription, listPrescriptions, prescriptionsCsv } from './prescription-register.js';

export const prescriptionsRouter: Router = createRouter()
  .openapi(routes.listPrescriptions, async (c) => {
    const { items, meta } = await listPrescriptions(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.prescriptionsCsv, async (c) => {
    const file = await prescriptionsCsv(authedCtx(c), c.req.valid('query'));
    return csvResponse(c, file);
  })
  .openapi(routes.getPrescription, async (c) => ok(c, await getPrescription(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.correctPrescription, async (c) =>
    ok(c, await correctPrescription(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      status: 201,
      message: 'prescription corrected',
    }),
  );
