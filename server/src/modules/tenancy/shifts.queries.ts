/**
 * Which shift money moved in (issue 37): sales, refunds and voids, expenses and credit payments
 * name the shift they were made in. A till names its open shift (`shift_id` in a pushed mutation);
 * it is taken when it is a shift of this organisation and store, and otherwise, as for every REST
 * call, the cashier's open shift in the store is. No shift is no error: money is never refused
 * over its shift. Here, below every area that moves money, so each can attribute its own rows.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

export interface ShiftScope {
  orgId: string;
  storeId: string;
}

export type ShiftCandidate = { id: string; cashier_id: string; status: string };

/** The shifts of the store named in `ids`, and those open for the `cashiers`, in one read. */
export async function shiftCandidates(
  db: Kysely<Database>,
  scope: ShiftScope,
  want: { ids: string[]; cashiers: string[] },
): Promise<ShiftCandidate[]> {
  if (!want.ids.length && !want.cashiers.length) return [];
  return db
    .selectFrom('shifts')
    .select(['id', 'cashier_id', 'status'])
    .where('org_id', '=', scope.orgId)
    .where('store_id', '=', scope.storeId)
    .where((eb) =>
      eb.or([
        ...(want.ids.length ? [eb('id', 'in', want.ids)] : []),
        ...(want.cashiers.length ? [eb.and([eb('cashier_id', 'in', want.cashiers), eb('status', '=', 'open')])] : []),
      ]),
    )
    .execute();
}

/** The shift named, when it is among the candidates; else the cashier's open one; else none. */
export function pickShift(candidates: ShiftCandidate[], named: string | null | undefined, cashierId: string): string | null {
  if (named && candidates.some((c) => c.id === named)) return named;
  return candidates.find((c) => c.cashier_id === cashierId && c.status === 'open')?.id ?? null;
}

/** One row's shift: `named` by the till, or the cashier's open shift in the store. */
export async function shiftFor(db: Kysely<Database>, scope: ShiftScope, cashierId: string, named?: string | null): Promise<string | null> {
  const candidates = await shiftCandidates(db, scope, { ids: named ? [named] : [], cashiers: [cashierId] });
  return pickShift(candidates, named, cashierId);
}
