/**
 * Writing a report file: rows are read page by page and streamed through the CSV (or JSON) writer
 * straight into storage, then the export is recorded. The file is the answer to the request and to
 * every later download, byte for byte.
 */
import { newId, type ReportExport, type ReportFormat, type ReportType, fromCents } from '@duka/shared';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServiceContext } from '../../../lib/context.js';
import { iso } from '../../../lib/clock.js';
import { CSV_CONTENT_TYPE, csvWriter, defuseFormula } from '../../../lib/csv.js';
import { storageKey } from '../../../lib/storage.js';
import { localDate } from '../../../lib/time.js';
import { findExport, insertExport, PAGE } from '../reports.queries.js';
import type { ReportExportRow } from '../../../db/tables/reports.table.js';
import type { Period } from './range.js';
import { buildReport, type Cell, type Column, type ReportSpec, type Row } from './report-specs.js';

export { PAGE };

export const CONTENT_TYPES: Record<ReportFormat, string> = { csv: CSV_CONTENT_TYPE, json: 'application/json; charset=utf-8' };

/** Cents as a decimal string with exactly 2 decimals, without floating point. */
export function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Text cells are defused (lib/csv.ts); money cells are written as decimals and left as they are. */
function cellFor(col: Column, v: Cell, format: ReportFormat): Cell {
  if (!col.money || v === null || typeof v !== 'number') {
    if (format !== 'csv') return v;
    return typeof v === 'string' ? defuseFormula(v) : (v ?? '');
  }
  return format === 'csv' ? centsText(v) : fromCents(v);
}

async function* formatRows(columns: Column[], rows: AsyncIterable<Row> | Iterable<Row>, format: ReportFormat): AsyncGenerator<Row> {
  for await (const r of rows) {
    const out: Row = {};
    for (const c of columns) out[c.key] = cellFor(c, r[c.key] ?? null, format);
    yield out;
  }
}

async function* specRows(spec: ReportSpec): AsyncGenerator<Row> {
  for await (const page of spec.rows()) yield* page;
}

const formatted = (spec: ReportSpec, format: ReportFormat) => formatRows(spec.columns, specRows(spec), format);

/**
 * The one CSV writer of reports and registers: a header row of the column keys, CRLF line ends,
 * money columns (cents) with 2 decimals, formula-like text defused. `feeding` settles when every
 * row is in; read `csv` at the same time.
 */
export function writeCsv(columns: Column[], rows: AsyncIterable<Row> | Iterable<Row>) {
  const csv = csvWriter(columns.map((c) => c.key));
  return { csv, feeding: pipeline(Readable.from(formatRows(columns, rows, 'csv')), csv) };
}

/** Rows as one CSV text (a register small enough to answer in one piece). */
export async function csvText(columns: Column[], rows: Iterable<Row>): Promise<string> {
  const { csv, feeding } = writeCsv(columns, rows);
  const chunks: string[] = [];
  const reading = (async () => {
    for await (const chunk of csv) chunks.push(String(chunk));
  })();
  await Promise.all([reading, feeding]);
  return chunks.join('');
}

/** The JSON file: the response envelope itself, written piece by piece. */
async function* jsonText(spec: ReportSpec, head: Record<string, unknown>): AsyncGenerator<string> {
  const totals: Record<string, number> = {};
  for (const [k, v] of Object.entries(spec.totals)) totals[k] = spec.moneyTotals.includes(k) ? fromCents(v) : v;
  const data = JSON.stringify({ ...head, columns: spec.columns.map((c) => c.key), totals });
  yield `{"success":true,"message":"OK","data":${data.slice(0, -1)},"rows":[`;
  let first = true;
  for await (const row of formatted(spec, 'json')) {
    yield (first ? '' : ',') + JSON.stringify(row);
    first = false;
  }
  yield ']},"errors":null,"meta":null}';
}

export interface ReportRequest {
  orgId: string;
  storeId: string;
  tz: string;
  type: ReportType;
  format: ReportFormat;
  period: Period;
  createdBy: string | null;
  scheduledReportId?: string | null;
}

export const fileUrl = (ctx: ServiceContext, id: string) => `${ctx.config.BASE_PATH}/reports/exports/${id}/download`;

/** Generate the report into storage; the export row is returned, not yet recorded. */
export async function writeReportFile(ctx: ServiceContext, r: ReportRequest): Promise<ReportExportRow> {
  const id = newId();
  const now = ctx.clock.now();
  const spec = await buildReport(r.type, { db: ctx.db, orgId: r.orgId, storeId: r.storeId, tz: r.tz, now, period: r.period });
  const key = storageKey(r.orgId, 'exports', `${id}.${r.format}`);
  const stamp = spec.dated ? `${r.period.from}_to_${r.period.to}` : localDate(now, r.tz);
  const fileName = `${r.type}-report_${stamp}.${r.format}`;
  let size: number;
  if (r.format === 'csv') {
    const { csv, feeding } = writeCsv(spec.columns, specRows(spec));
    [size] = await Promise.all([ctx.storage.put(key, csv), feeding]);
  } else {
    const head = {
      export_id: id,
      file_url: fileUrl(ctx, id),
      report_type: r.type,
      date_from: spec.dated ? r.period.from : null,
      date_to: spec.dated ? r.period.to : null,
      timezone: r.tz,
    };
    size = await ctx.storage.put(key, jsonText(spec, head));
  }
  const row: ReportExportRow = {
    id,
    org_id: r.orgId,
    store_id: r.type === 'credit' ? null : r.storeId,
    report_type: r.type,
    format: r.format,
    storage_key: key,
    file_name: fileName,
    size_bytes: size,
    date_from: spec.dated ? r.period.from : null,
    date_to: spec.dated ? r.period.to : null,
    scheduled_report_id: r.scheduledReportId ?? null,
    created_by: r.createdBy,
    created_at: now,
  };
  return row;
}

/** Generate the report into storage and record it as an export. */
export async function writeReport(ctx: ServiceContext, r: ReportRequest): Promise<ReportExportRow> {
  const row = await writeReportFile(ctx, r);
  try {
    await insertExport(ctx.db, row);
  } catch (err) {
    await ctx.storage.delete(row.storage_key).catch(() => undefined);
    throw err;
  }
  return row;
}

export function toReportExport(ctx: ServiceContext, row: ReportExportRow): ReportExport {
  return {
    id: row.id,
    report_type: row.report_type,
    format: row.format,
    file_url: fileUrl(ctx, row.id),
    file_name: row.file_name,
    size: Number(row.size_bytes),
    date_from: row.date_from,
    date_to: row.date_to,
    store_id: row.store_id,
    scheduled_report_id: row.scheduled_report_id,
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
  };
}

export { findExport };
