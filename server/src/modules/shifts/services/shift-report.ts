/**
 * A shift's report: X while it is open (what each method should hold so far), Z once closed (with
 * what was counted). The figures are the shared `computeShiftReport`, the till's X report's rule
 * too; the movements are read afresh, so a sale a till pushes late into its shift still counts.
 */
import { computeShiftReport, type TillShiftWithReport, toShiftReport } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { ShiftRow } from '../../../db/tables/shifts.table.js';
import { cashierName, countedAtClose, shiftMovements, toShift } from '../shifts.queries.js';

export async function shiftFigures(db: Kysely<Database>, row: ShiftRow, counted?: Record<string, number>) {
  const [movements, stored] = await Promise.all([
    shiftMovements(db, row.org_id, row.id),
    counted ?? (row.status === 'closed' ? countedAtClose(db, row.org_id, row.id) : undefined),
  ]);
  return computeShiftReport({ opening_float: Number(row.opening_float), movements, counted: stored });
}

export async function withReport(
  db: Kysely<Database>,
  row: ShiftRow,
  figures?: Awaited<ReturnType<typeof shiftFigures>>,
): Promise<TillShiftWithReport> {
  const [computed, name] = await Promise.all([figures ?? shiftFigures(db, row), cashierName(db, row.org_id, row.cashier_id)]);
  const shift = toShift(row);
  const report = toShiftReport(computed, {
    ...shift,
    cashier_name: name,
    opening_float: Number(row.opening_float),
    note: row.close_note,
  });
  return { ...shift, report };
}
