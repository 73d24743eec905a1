/**
 * Shifts on the till (issue 37), offline like every other action: opening and closing are queued
 * as `shift.open` / `shift.close` with the till's own shift id, and the money this till moves while
 * a shift is open is kept beside it, so the X report is the shared `computeShiftReport` over the
 * replica, the same rule as the server's. The signed-in cashier's open shift is the till's shift:
 * sales, refunds, voids, expenses and credit payments carry its id.
 */
import {
  CloseShiftInput,
  computeShiftReport,
  newId,
  OpenShiftInput,
  type ShiftMovementKind,
  type TillShift,
  type TillShiftWithReport,
  toCents,
  toShiftReport,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { LocalExec } from '../local/db.js';
import { getMeta } from '../local/meta.js';
import { openShiftRow, type ShiftRow } from '../local/shift-movements.js';
import { enqueue } from '../queue.js';
import { type ActionCtx, invalid, shopOf } from './context.js';

async function report(db: LocalExec, row: ShiftRow, counted?: Record<string, number>): Promise<TillShiftWithReport> {
  const shift = JSON.parse(row.data) as TillShift;
  const movements = await db
    .selectFrom('shift_movements')
    .select(['kind', 'method', 'amount', 'count'])
    .where('shift_id', '=', row.id)
    .execute();
  const figures = computeShiftReport({
    opening_float: row.opening_float,
    movements: movements.map((m) => ({ kind: m.kind as ShiftMovementKind, method: m.method, amount: m.amount, count: m.count })),
    counted,
  });
  const user = await getMeta(db, 'user');
  const name = user?.id === shift.cashier_id ? `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || null : null;
  return {
    ...shift,
    report: toShiftReport(figures, { ...shift, cashier_name: name, opening_float: row.opening_float, note: shift.close_note }),
  };
}

/** The signed-in cashier's open shift on this till with its X report, or null. */
export async function currentShift(db: LocalExec): Promise<TillShiftWithReport | null> {
  const row = await openShiftRow(db);
  return row ? report(db, row) : null;
}

export async function openShift(ctx: ActionCtx, input: OpenShiftInput): Promise<TillShiftWithReport> {
  const parsed = OpenShiftInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const shift = await ctx.db.transaction().execute(async (trx) => {
    const { store, user } = await shopOf(trx);
    if (!user) throw new TillError('UNAUTHENTICATED', 'sign in to open a shift');
    const open = await openShiftRow(trx);
    if (open) throw new TillError('CONFLICT', `you already have a shift open on this till (${open.id}): close it first`, 'shift_id');
    const id = parsed.data.id ?? newId();
    const at = new Date(ctx.now()).toISOString();
    const shift: TillShift = {
      id,
      store_id: store.id,
      cashier_id: user.id,
      till_number: parsed.data.till_number ?? null,
      device_id: null,
      status: 'open',
      opening_float: parsed.data.opening_float,
      open_note: parsed.data.note ?? null,
      close_note: null,
      opened_at: at,
      closed_at: null,
      closed_by: null,
      over_short: null,
    };
    const row = { id, cashier_id: user.id, status: 'open', opening_float: toCents(shift.opening_float), data: JSON.stringify(shift) };
    await trx.insertInto('shifts').values(row).execute();
    await enqueue(trx, 'shift.open', { ...parsed.data, id }, ctx.now(), { restore: [] });
    return report(trx, row);
  });
  ctx.queued();
  return shift;
}

/** Close the open shift with what was counted: the Z report as the till works it out (the server's follows the sync). */
export async function closeShift(ctx: ActionCtx, input: CloseShiftInput): Promise<TillShiftWithReport> {
  const parsed = CloseShiftInput.safeParse(input);
  if (!parsed.success) throw invalid({ ...parsed.error.issues[0]!, path: ['counted', ...parsed.error.issues[0]!.path.slice(1)] });
  const closed = await ctx.db.transaction().execute(async (trx) => {
    const open = await openShiftRow(trx);
    if (!open) throw new TillError('NOT_FOUND', 'no shift is open on this till');
    const counted = Object.fromEntries(Object.entries(parsed.data.counted).map(([m, v]) => [m, toCents(v!)]));
    const user = await getMeta(trx, 'user');
    const before = await report(trx, open, counted);
    const shift: TillShift = {
      ...(JSON.parse(open.data) as TillShift),
      status: 'closed',
      close_note: parsed.data.note ?? null,
      closed_at: new Date(ctx.now()).toISOString(),
      closed_by: user?.id ?? null,
      over_short: before.report.totals.over_short,
    };
    const data = JSON.stringify(shift);
    await trx.updateTable('shifts').set({ status: 'closed', data }).where('id', '=', open.id).execute();
    await enqueue(trx, 'shift.close', { shift_id: open.id, ...parsed.data }, ctx.now());
    return report(trx, { ...open, data }, counted);
  });
  ctx.queued();
  return closed;
}

/** The X report of the open shift (null when none is open), worked out from this till's replica. */
export async function shiftReport(db: LocalExec) {
  return (await currentShift(db))?.report ?? null;
}
