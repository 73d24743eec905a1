/**
 * The money a till moves while a shift is open, kept in the replica beside the shift (issue 37):
 * every action that moves money and the payment watch's booked sales note it here.
 */
import { newId, type ShiftMovementKind } from '@duka/shared';
import type { CompiledQuery } from 'kysely';
import type { LocalExec, LocalTrx } from './db.js';
import { getMeta } from './meta.js';

export type ShiftRow = { id: string; opening_float: number; data: string };

/** The signed-in cashier's open shift on this till, if any. */
export async function openShiftRow(db: LocalExec): Promise<ShiftRow | undefined> {
  const user = await getMeta(db, 'user');
  if (!user) return undefined;
  return db
    .selectFrom('shifts')
    .select(['id', 'opening_float', 'data'])
    .where('cashier_id', '=', user.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** The signed-in cashier's open shift on this till, whose money a sale or refund moves (none open: undefined). */
export async function cashierShift(db: LocalExec): Promise<string | undefined> {
  return (await openShiftRow(db))?.id;
}

/** Note money an action moved in a shift; answers the movement's id for the action's undo. */
export async function recordMovement(
  trx: LocalTrx,
  shiftId: string,
  m: { kind: ShiftMovementKind; method: string; amount: number; at: number; count?: number },
): Promise<string> {
  const id = newId();
  const row = { id, shift_id: shiftId, kind: m.kind, method: m.method, amount: m.amount, created_at: new Date(m.at).toISOString() };
  await trx
    .insertInto('shift_movements')
    .values(m.count === undefined ? row : { ...row, count: m.count })
    .execute();
  return id;
}

/**
 * Note a sale (or its refund or void) part by part (issue 51), as the server counts a shift: each
 * part's amount under its method (5,000 cash + 7,500 M-Pesa: 5,000 in the drawer), the sale once,
 * under its first part's method. Answers the movements' ids for the undo.
 */
export async function recordParts(
  trx: LocalTrx,
  shiftId: string,
  kind: 'sale' | 'reversal',
  parts: ReadonlyArray<{ method: string; amount: number }>,
  at: number,
): Promise<string[]> {
  const { ids, insert } = partMovements(trx, shiftId, kind, parts, at);
  if (insert) await trx.executeQuery(insert);
  return ids;
}

/** `recordParts`' one statement (every part in it), to run with others (`runInOrder`), and the ids. */
export function partMovements(
  trx: LocalTrx,
  shiftId: string,
  kind: 'sale' | 'reversal',
  parts: ReadonlyArray<{ method: string; amount: number }>,
  at: number,
): { ids: string[]; insert?: CompiledQuery } {
  if (!parts.length) return { ids: [] };
  const created_at = new Date(at).toISOString();
  const rows = parts.map((part, i) => ({
    id: newId(),
    shift_id: shiftId,
    kind,
    method: part.method,
    amount: part.amount,
    created_at,
    count: i > 0 ? 0 : 1,
  }));
  return { ids: rows.map((r) => r.id), insert: trx.insertInto('shift_movements').values(rows).compile() };
}

/**
 * Note money moved by an action in the signed-in cashier's open shift: answers the shift's id for
 * the mutation's payload and the movement for its undo (none when no shift is open).
 */
export async function shiftMovement(
  trx: LocalTrx,
  m: { kind: ShiftMovementKind; method: string; amount: number; at: number },
): Promise<{ shift_id?: string; movements: string[] }> {
  const shiftId = await cashierShift(trx);
  if (!shiftId) return { movements: [] };
  return { shift_id: shiftId, movements: [await recordMovement(trx, shiftId, m)] };
}
