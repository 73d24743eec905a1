/**
 * Sending scheduled reports. Each server instance calls `runScheduledReports` from its maintenance
 * timer. A due report is claimed before anything is rendered: its lease (`scheduled-report:<id>`,
 * lib/leases.ts) is taken, and the schedule read again under it, so of several instances one
 * renders it. The send itself still moves `next_run_at` on with a conditional UPDATE (`WHERE
 * next_run_at = <the value read>`) in the transaction that records the export and writes the emails
 * to the outbox, and that transaction fences the lease: a holder that stalled past its lease while
 * another took over commits nothing, and since the claim and the emails commit together, a restart
 * neither repeats nor loses a send. The outbox delivers after commit and retries failures.
 */
import type { ReportType } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import { type Lease, LeaseLost } from '../../../lib/leases.js';
import { addDays, localDate } from '../../../lib/time.js';
import { dueSchedules, insertExport, isStillDue } from '../reports.queries.js';
import type { ReportExportRow, ScheduledReportRow } from '../../../db/tables/reports.table.js';
import { nextRunAt, presetPeriod } from './range.js';
import { REPORT_TYPES } from './report-specs.js';
import { writeReportFile } from './write-report.js';

const DUE_BATCH = 20;

export interface Claim {
  /** The `next_run_at` this instance read. */
  seen: number;
  next: number;
  /** The schedule's lease, held while it renders; the send's transaction fences it. */
  lease?: Lease;
}

const reportName = (type: ReportType) => REPORT_TYPES.find((r) => r.type === type)!.name;

/**
 * Generate the schedule's CSV and email it to every recipient. With a claim, nothing is recorded
 * or sent unless this call wins it (`exportRow` null then). The period is the preset ending
 * yesterday (local), so a report sent at 07:00 covers whole days.
 */
export async function dispatchSchedule(
  ctx: ServiceContext,
  s: ScheduledReportRow,
  claim: Claim | null,
): Promise<{ exportRow: ReportExportRow | null; recipients: string[] }> {
  const org = await ctx.db.selectFrom('organisations').select(['name', 'timezone']).where('id', '=', s.org_id).executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const period = presetPeriod(s.date_range_preset, addDays(localDate(now, org.timezone), -1), org.timezone);
  const recipients = JSON.parse(s.recipients) as string[];
  const row = await writeReportFile(ctx, {
    orgId: s.org_id,
    storeId: s.store_id ?? '',
    tz: org.timezone,
    type: s.report_type,
    format: 'csv',
    period,
    createdBy: claim ? null : (ctx.actor?.userId ?? null),
    scheduledReportId: s.id,
  });
  const dated = row.date_from !== null;
  const what = `${reportName(s.report_type)} report${dated ? ` ${row.date_from} to ${row.date_to}` : ` as of ${localDate(now, org.timezone)}`}`;
  const sent = await withTransaction(ctx, async (tx) => {
    await claim?.lease?.fence(tx.db);
    const update = tx.db
      .updateTable('scheduled_reports')
      .set({ last_run_at: now, last_export_id: row.id, ...(claim ? { next_run_at: claim.next } : {}) })
      .where('org_id', '=', s.org_id)
      .where('id', '=', s.id);
    const done = await (claim ? update.where('next_run_at', '=', claim.seen).where('is_enabled', '=', 1) : update).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false;
    await insertExport(tx.db, row);
    for (const to of recipients) {
      await tx.messenger.send(tx, {
        channel: 'email',
        to,
        orgId: s.org_id,
        subject: `${s.name}: ${what} (${org.name})`,
        body: `Habari,\n\nThe ${what} for ${org.name} is attached (${row.file_name}).\nRipoti yako imeambatishwa.\n\nDuka`,
        attachments: [{ filename: row.file_name, content_type: 'text/csv; charset=utf-8', storage_key: row.storage_key }],
      });
    }
    return true;
  }).catch((err) => {
    if (err instanceof LeaseLost) return false;
    throw err;
  });
  if (!sent) {
    await ctx.storage.delete(row.storage_key).catch(() => undefined);
    return { exportRow: null, recipients };
  }
  return { exportRow: row, recipients };
}

/**
 * Send every enabled scheduled report that is due (at most a batch per call); returns how many this
 * instance sent. A report missed while every server was down is sent once at the next call, then
 * again at its next regular time.
 */
export async function runScheduledReports(deps: Deps): Promise<number> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'scheduled-reports' };
  const now = deps.clock.now();
  let sent = 0;
  for (const s of await dueSchedules(deps.db, now, DUE_BATCH)) {
    try {
      const tz = (await deps.db.selectFrom('organisations').select('timezone').where('id', '=', s.org_id).executeTakeFirst())?.timezone;
      if (!tz) continue;
      const run = await deps.leases.run(`scheduled-report:${s.id}`, {}, async (lease) => {
        // Read again under the lease: another instance may have sent it since the due list was read.
        if (!(await isStillDue(deps.db, s))) return null;
        return (await dispatchSchedule(ctx, s, { seen: Number(s.next_run_at), next: nextRunAt(s.frequency, now, tz), lease })).exportRow;
      });
      if (run?.value) sent++;
    } catch (err) {
      deps.log.warn({ err, scheduled_report_id: s.id }, 'scheduled report failed; retried at the next tick');
    }
  }
  return sent;
}
