import type { Context } from 'hono';
import type { AppEnv } from '../../../lib/context.js';
import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { csvResponse } from '../../../lib/csv.js';
import * as recalls from '../recalls/recalls.routes.js';
import * as registers from './registers.routes.js';
import { disposeBatch, listQuarantine, releaseQuarantine } from '../recalls/quarantine.js';
import { createRecall, getRecall, listRecalls } from '../recalls/recalls.js';
import { controlledRegisterCsv, type CsvFile, disposalRegisterCsv } from './register-csv.js';
import { readControlledRegister, readDisposalRegister } from './registers.js';

const csv = (c: Context<AppEnv>, f: CsvFile) => csvResponse(c, { fileName: f.fileName, body: f.text });

/** Quarantine, disposal, recalls and the registers; mounted by the pharmacy router. */
export const pharmacyRegistersRouter: Router = createRouter()
  .openapi(recalls.listQuarantine, async (c) => {
    const { items, meta } = await listQuarantine(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(recalls.releaseQuarantine, async (c) =>
    ok(c, await releaseQuarantine(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'released from quarantine' }),
  )
  .openapi(recalls.disposeBatch, async (c) =>
    ok(c, await disposeBatch(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'disposed of' }),
  )
  .openapi(recalls.createRecall, async (c) =>
    ok(c, await createRecall(authedCtx(c), c.req.valid('json')), { message: 'lot recalled', status: 201 }),
  )
  .openapi(recalls.listRecalls, async (c) => {
    const { items, meta } = await listRecalls(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(recalls.getRecall, async (c) => ok(c, await getRecall(authedCtx(c), c.req.valid('param').id)))
  .openapi(registers.controlledRegister, async (c) => ok(c, await readControlledRegister(authedCtx(c), c.req.valid('query'))))
  .openapi(registers.controlledRegisterCsv, async (c) => csv(c, await controlledRegisterCsv(authedCtx(c), c.req.valid('query'))))
  .openapi(registers.disposalRegister, async (c) => ok(c, await readDisposalRegister(authedCtx(c), c.req.valid('query'))))
  .openapi(registers.disposalRegisterCsv, async (c) => csv(c, await disposalRegisterCsv(authedCtx(c), c.req.valid('query'))));
