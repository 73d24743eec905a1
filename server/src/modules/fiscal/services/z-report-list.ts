/** GET /stores/{id}/fiscal/z-reports: the store's Z reports, newest first, as kept. */
import { fromCents, type ZReport } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import type { FiscalZReportRow } from '../../../db/tables/fiscal.table.js';
import type { ZFigures } from './z-report-xml.js';
import { newestZReports } from '../fiscal.queries.js';
import { ownStore } from './settings.js';

export function toZReport(row: FiscalZReportRow): ZReport {
  const f = JSON.parse(row.figures) as ZFigures;
  return {
    id: row.id,
    date: f.date,
    znumber: row.znum,
    status: row.status,
    receipts: f.receipts,
    daily_total: fromCents(f.dailyTotal),
    gross: fromCents(f.gross),
    discounts: fromCents(f.discounts),
    corrections: fromCents(f.corrections),
    voids: f.voids,
    voids_total: fromCents(f.voidsTotal),
    vat: Object.fromEntries(Object.entries(f.vat).map(([code, v]) => [code, { net: fromCents(v.net), tax: fromCents(v.tax) }])),
    payments: Object.fromEntries(Object.entries(f.payments).map(([type, cents]) => [type, fromCents(cents)])),
    acknowledged_at: isoOrNull(row.acknowledged_at === null ? null : Number(row.acknowledged_at)),
    created_at: iso(Number(row.created_at)),
  };
}

export async function listZReports(ctx: AuthedContext, storeId: string, limit: number): Promise<ZReport[]> {
  const { orgId } = await ownStore(ctx, storeId);
  return (await newestZReports(ctx.db, { orgId, storeId }, limit)).map(toZReport);
}
