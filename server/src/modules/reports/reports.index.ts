import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context.js';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import { csvResponse } from '../../lib/csv.js';
import * as routes from './reports.routes.js';
import { downloadExport, generateReport, listReportExports, type ReportFile, reportTypes } from './services/exports.js';
import {
  createScheduledReport,
  deleteScheduledReport,
  listScheduledReports,
  sendScheduledReportNow,
  updateScheduledReport,
} from './services/scheduled.js';

/** A stored report file, streamed: a CSV as an attachment, JSON as the envelope it already is. */
function fileResponse(c: Context<AppEnv>, f: ReportFile) {
  const headers = { 'content-length': String(f.size), 'x-export-id': f.export.id };
  if (f.export.format === 'csv') return csvResponse(c, { fileName: f.fileName, body: f.stream }, headers);
  const json = { ...headers, 'content-type': f.contentType, 'cache-control': 'private, no-store' };
  return c.body(Readable.toWeb(f.stream) as ReadableStream, 200, json) as never;
}

export const reportsRouter: Router = createRouter()
  .openapi(routes.types, (c) => ok(c, reportTypes()))
  .openapi(routes.generate, async (c) => fileResponse(c, await generateReport(authedCtx(c), c.req.valid('json'))))
  .openapi(routes.listExports, async (c) => ok(c, await listReportExports(authedCtx(c), c.req.valid('query'))))
  .openapi(routes.download, async (c) => fileResponse(c, await downloadExport(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.listScheduled, async (c) => ok(c, await listScheduledReports(authedCtx(c))))
  .openapi(routes.createScheduled, async (c) =>
    ok(c, await createScheduledReport(authedCtx(c), c.req.valid('json')), { message: 'report scheduled' }),
  )
  .openapi(routes.updateScheduled, async (c) =>
    ok(c, await updateScheduledReport(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'scheduled report updated' }),
  )
  .openapi(routes.deleteScheduled, async (c) => {
    await deleteScheduledReport(authedCtx(c), c.req.valid('param').id);
    return ok(c, null, { message: 'scheduled report deleted' });
  })
  .openapi(routes.sendScheduled, async (c) =>
    ok(c, await sendScheduledReportNow(authedCtx(c), c.req.valid('param').id), { message: 'report sent' }),
  );
