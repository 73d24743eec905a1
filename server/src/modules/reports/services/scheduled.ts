/** Scheduled reports (owners only): create, change, delete, list, and send one now. */
import { newId } from '@duka/shared';
import type { CreateScheduledReportInput, ScheduledReport, ScheduledReportDispatch, UpdateScheduledReportInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { findSchedule, updateSchedule } from '../reports.queries.js';
import type { ScheduledReportRow } from '../../../db/tables/reports.table.js';
import { nextRunAt } from './range.js';
import { dispatchSchedule } from './scheduler.js';
import { toReportExport } from './write-report.js';
import { requireRole, requireStore } from '../../../lib/auth/authorize.js';

export function toScheduledReport(row: ScheduledReportRow): ScheduledReport {
  return {
    id: row.id,
    report_type: row.report_type,
    name: row.name,
    frequency: row.frequency,
    date_range_preset: row.date_range_preset,
    recipients: JSON.parse(row.recipients) as string[],
    is_enabled: row.is_enabled === 1,
    store_id: row.store_id,
    next_run_at: iso(Number(row.next_run_at)),
    last_run_at: isoOrNull(row.last_run_at == null ? null : Number(row.last_run_at)),
    last_export_id: row.last_export_id,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

async function requireSchedule(ctx: AuthedContext, id: string): Promise<ScheduledReportRow> {
  const row = await findSchedule(ctx.db, requireStore(ctx).orgId, id);
  if (!row) throw new NotFoundError('scheduled report');
  return row;
}

export async function listScheduledReports(ctx: AuthedContext): Promise<ScheduledReport[]> {
  requireRole(ctx, 'owner');
  const { orgId } = requireStore(ctx);
  const rows = await ctx.db
    .selectFrom('scheduled_reports')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toScheduledReport);
}

export async function createScheduledReport(ctx: AuthedContext, input: CreateScheduledReportInput): Promise<ScheduledReport> {
  requireRole(ctx, 'owner');
  const { orgId, storeId } = requireStore(ctx);
  const now = ctx.clock.now();
  const tz = await orgTimezone(ctx.db, orgId);
  const row: ScheduledReportRow = {
    id: newId(),
    org_id: orgId,
    store_id: storeId,
    report_type: input.report_type,
    name: input.name,
    frequency: input.frequency,
    date_range_preset: input.date_range_preset,
    recipients: JSON.stringify([...new Set(input.recipients)]),
    is_enabled: input.is_enabled ? 1 : 0,
    next_run_at: nextRunAt(input.frequency, now, tz),
    last_run_at: null,
    last_export_id: null,
    created_by: ctx.actor.userId,
    created_at: now,
    updated_at: now,
  };
  return withTransaction(ctx, async (tx) => {
    await tx.db.insertInto('scheduled_reports').values(row).execute();
    await recordAudit(tx, {
      action: 'report.schedule',
      description: `Scheduled the ${input.frequency} report "${input.name}"`,
      entity: 'scheduled_report',
      entityId: row.id,
    });
    return toScheduledReport(row);
  });
}

export async function updateScheduledReport(ctx: AuthedContext, id: string, input: UpdateScheduledReportInput): Promise<ScheduledReport> {
  requireRole(ctx, 'owner');
  const existing = await requireSchedule(ctx, id);
  const now = ctx.clock.now();
  const frequency = input.frequency ?? existing.frequency;
  const enabling = input.is_enabled === true && existing.is_enabled === 0;
  // A new frequency, or a report switched back on, starts from the next send time from now (no catch-up of missed ones).
  const reschedule = (input.frequency !== undefined && input.frequency !== existing.frequency) || enabling;
  const tz = reschedule ? await orgTimezone(ctx.db, existing.org_id) : '';
  await updateSchedule(ctx.db, existing.org_id, id, input, reschedule ? nextRunAt(frequency, now, tz) : undefined, now);
  return toScheduledReport((await findSchedule(ctx.db, existing.org_id, id))!);
}

export async function deleteScheduledReport(ctx: AuthedContext, id: string): Promise<void> {
  requireRole(ctx, 'owner');
  const existing = await requireSchedule(ctx, id);
  await ctx.db.deleteFrom('scheduled_reports').where('org_id', '=', existing.org_id).where('id', '=', existing.id).execute();
}

/** Send the report now to its recipients; its schedule is unchanged. */
export async function sendScheduledReportNow(ctx: AuthedContext, id: string): Promise<ScheduledReportDispatch> {
  requireRole(ctx, 'owner');
  const schedule = await requireSchedule(ctx, id);
  const { exportRow, recipients } = await dispatchSchedule(ctx, schedule, null);
  return {
    scheduled_report_id: schedule.id,
    export: toReportExport(ctx, exportRow!),
    recipients,
    queued: recipients.length,
    delivered: ctx.messenger.emailDelivers,
  };
}
