/**
 * The daily Z reports: once a day (EAT) has ended and its receipts are all acknowledged, the day is
 * added up, signed, kept, and posted to TRA; then the next day. Every day from the device's first
 * receipt on gets one while the device is switched on, quiet days with zero totals, as a fiscal
 * printer prints a Z each evening.
 * A Z report is built once and resent byte for byte, like a receipt.
 */
import type { FiscalDeviceRow, FiscalZReportRow } from '../../../db/tables/fiscal.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { addDays, EAT, localDate, localDayRange } from '../../../lib/time.js';
import {
  deviceScope,
  firstReceiptDay,
  insertZReport,
  lastZReport,
  registrationOf,
  salesReversedBetween,
  unacknowledgedZReports,
} from '../fiscal.queries.js';
import { signPayload } from '../tra/certificate.js';
import type { TraGateway } from '../tra/tra-gateway.js';
import { envelope } from '../tra/xml.js';
import { endpointOf, signingKey } from './device-session.js';
import { sendQueued } from './post.js';
import type { ReceiptFigures } from './receipt-xml.js';
import { addUpDay, type ZFigures, zReportPayload } from './z-report-xml.js';

/**
 * A day is closed this long after midnight: a sale numbered at 23:59:59 whose transaction commits
 * a moment later must be in its day's Z report, not after it.
 */
const CLOSE_AFTER_MS = 5 * 60_000;

/** The day (EAT) still open at `now`: every day before it is due its Z report. */
export const openDay = (now: number) => localDate(now - CLOSE_AFTER_MS, EAT);

export const dateOfZnum = (znum: string) => `${znum.slice(0, 4)}-${znum.slice(4, 6)}-${znum.slice(6, 8)}`;

/**
 * Write and send the Z reports of the days before `before` (the day still open by default). True
 * when every one of them is acknowledged, so a receipt of `before` may follow them (TRA: the Z
 * report goes before the sales of a new day).
 */
export async function sendDueZReports(
  ctx: ServiceContext,
  gateway: TraGateway,
  device: FiscalDeviceRow,
  before = openDay(ctx.clock.now()),
): Promise<boolean> {
  await writeFinishedDays(ctx, device, before);
  const due = await unacknowledgedZReports(ctx.db, deviceScope(device));
  for (const z of due) {
    if (dateOfZnum(z.znum) >= before) break;
    if (z.next_attempt_at !== null && Number(z.next_attempt_at) > ctx.clock.now()) return false;
    if (!(await sendOne(ctx, gateway, device, z))) return false;
  }
  return true;
}

function sendOne(ctx: ServiceContext, gateway: TraGateway, device: FiscalDeviceRow, z: FiscalZReportRow): Promise<boolean> {
  return sendQueued(
    ctx,
    gateway,
    device,
    { table: 'fiscal_z_reports', id: z.id, attempts: z.attempts, label: { store_id: z.store_id, znum: z.znum } },
    (token) => gateway.postZReport(endpointOf(ctx, device), token, z.body),
    async (attempts) => {
      await ctx.db
        .updateTable('fiscal_z_reports')
        .set({ status: 'issued', attempts, ack_code: '0', last_error: null, next_attempt_at: null, acknowledged_at: ctx.clock.now() })
        .where('org_id', '=', z.org_id)
        .where('id', '=', z.id)
        .execute();
    },
  );
}

/** Write the Z reports of the days before `today` since the last one (or since the first receipt). */
async function writeFinishedDays(ctx: ServiceContext, device: FiscalDeviceRow, today: string): Promise<void> {
  const last = await lastZReport(ctx.db, deviceScope(device));
  let day: string;
  let gross = 0;
  if (last) {
    day = addDays(dateOfZnum(last.znum), 1);
    gross = (JSON.parse(last.figures) as ZFigures).gross;
  } else {
    const first = await firstReceiptDay(ctx.db, deviceScope(device));
    if (!first) return;
    day = dateOfZnum(first.znum);
  }
  // Switched off, the device reports the days up to its last receipt, then stops.
  const until = device.enabled === 1 || !device.last_znum ? today : [today, addDays(dateOfZnum(device.last_znum), 1)].sort()[0]!;
  for (; day < until; day = addDays(day, 1)) {
    const figures = await addUpReceipts(ctx, device, day, gross);
    await writeZReport(ctx, device, figures);
    gross = figures.gross;
  }
}

async function addUpReceipts(ctx: ServiceContext, device: FiscalDeviceRow, day: string, grossBefore: number): Promise<ZFigures> {
  const znum = day.replaceAll('-', '');
  const { from, to } = localDayRange(day, EAT);
  const [receipts, reversed] = await Promise.all([
    ctx.db
      .selectFrom('fiscal_receipts')
      .select('figures')
      .where('org_id', '=', device.org_id)
      .where('store_id', '=', device.store_id)
      .where('znum', '=', znum)
      .execute(),
    salesReversedBetween(ctx.db, deviceScope(device), from, to),
  ]);
  const refunds = reversed.filter((t) => t.status === 'refunded');
  const voids = reversed.filter((t) => t.status === 'void');
  return addUpDay(
    day,
    receipts.map((r) => JSON.parse(r.figures!) as ReceiptFigures),
    grossBefore,
    {
      corrections: refunds.reduce((s, t) => s + Number(t.total), 0),
      voids: voids.length,
      voidsTotal: voids.reduce((s, t) => s + Number(t.total), 0),
    },
  );
}

async function writeZReport(ctx: ServiceContext, device: FiscalDeviceRow, figures: ZFigures): Promise<void> {
  const registration = registrationOf(device)!;
  const payload = zReportPayload(
    { tin: device.tin, vrn: registration.vrn || device.vrn, registration, registeredOn: localDate(Number(device.registered_at), EAT) },
    figures,
  );
  const body = envelope(payload, await signPayload(await signingKey(ctx, device), payload));
  const now = ctx.clock.now();
  await insertZReport(ctx.db, {
    orgId: device.org_id,
    storeId: device.store_id,
    znum: figures.date.replaceAll('-', ''),
    figures: JSON.stringify(figures),
    body,
    now,
  });
}
