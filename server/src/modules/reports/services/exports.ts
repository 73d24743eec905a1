/** Generating reports on request, listing exports and downloading one again. */
import type { GenerateReportInput, ListExportsQuery, ReportExport } from '@duka/shared';
import type { Readable } from 'node:stream';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { findExport, listExports } from '../reports.queries.js';
import type { ReportExportRow } from '../../../db/tables/reports.table.js';
import { requestedPeriod } from './range.js';
import { REPORT_TYPES } from './report-specs.js';
import { CONTENT_TYPES, toReportExport, writeReport } from './write-report.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';

export const reportTypes = () => ({ report_types: REPORT_TYPES });

export interface ReportFile {
  export: ReportExport;
  stream: Readable;
  size: number;
  contentType: string;
  fileName: string;
}

async function open(ctx: AuthedContext, row: ReportExportRow): Promise<ReportFile> {
  const stored = await ctx.storage.get(row.storage_key);
  if (!stored) throw new NotFoundError('export file');
  return {
    export: toReportExport(ctx, row),
    stream: stored.stream,
    size: stored.size,
    contentType: CONTENT_TYPES[row.format],
    fileName: row.file_name,
  };
}

export async function generateReport(ctx: AuthedContext, input: GenerateReportInput): Promise<ReportFile> {
  requirePermission(ctx, 'reports');
  const { orgId, storeId } = requireStore(ctx);
  const tz = await orgTimezone(ctx.db, orgId);
  const period = requestedPeriod(input, ctx.clock.now(), tz);
  const row = await writeReport(ctx, {
    orgId,
    storeId,
    tz,
    type: input.report_type,
    format: input.format,
    period,
    createdBy: ctx.actor.userId,
  });
  return open(ctx, row);
}

export async function listReportExports(ctx: AuthedContext, q: ListExportsQuery): Promise<ReportExport[]> {
  requirePermission(ctx, 'reports');
  const { orgId } = requireStore(ctx);
  return (await listExports(ctx.db, orgId, q)).map((r) => toReportExport(ctx, r));
}

export async function downloadExport(ctx: AuthedContext, id: string): Promise<ReportFile> {
  requirePermission(ctx, 'reports');
  const { orgId } = requireStore(ctx);
  const row = await findExport(ctx.db, orgId, id);
  if (!row) throw new NotFoundError('export');
  return open(ctx, row);
}
