/**
 * Which shift money moved in (issues 37 and 49): sales, refunds and voids, expenses and credit
 * payments name the shift they were made in. The one rule, for every push and REST call (docs/pos.md
 * "Which shift money belongs to"): a shift takes money only when it is open, of this organisation and
 * store, and the actor's own, or opened by the very till pushing (a cashier's queue drained after
 * another signed in), or, over REST, any of the store's when the actor oversees shifts (owner,
 * manager). With none named, the actor's open shift takes it, then (a refund or void) the sale's own
 * shift when that may. A till is never refused over its shift (an offline sale is never lost): a
 * shift it may not use is a `shift` conflict, booked to its cashier's open shift instead, or, when the
 * shift named is closed, to none, so a counted drawer's figures never move. REST refuses it instead.
 * Here, below every area that moves money, so each can attribute its own rows.
 */
import type { Role, SaleConflict } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import { ForbiddenError, InvalidStateError, NotFoundError, type ServiceError } from '../../lib/errors.js';

export interface ShiftScope {
  orgId: string;
  storeId: string;
}

export type ShiftCandidate = { id: string; cashier_id: string; device_id: string | null; status: string; closed_at: number | null };

/** Whether the actor may close, see or pay out of another cashier's shift: the owner and managers may. */
export const overseesShifts = (actor: { role: Role }): boolean => actor.role === 'owner' || actor.role === 'manager';

/** Who books the money: a till's push names its device and oversees nothing; a REST caller has a role. */
export type ShiftBooker = { userId: string; deviceId: string } | { userId: string; role: Role };

/** The booker of a REST call, or of a till's push (its `deviceId`). */
export const bookerOf = (actor: { userId: string; role: Role }, deviceId?: string): ShiftBooker =>
  deviceId ? { userId: actor.userId, deviceId } : { userId: actor.userId, role: actor.role };

/** What a row says of its shift: the one named, and for a till's push its device and where its conflicts go. */
export interface NamedShift {
  shiftId?: string;
  deviceId?: string;
  conflicts?: SaleConflict[];
}

/** The shifts of the store named in `ids`, and those open for the `cashiers`, in one read. */
export async function shiftCandidates(
  db: Kysely<Database>,
  scope: ShiftScope,
  want: { ids: string[]; cashiers: string[] },
): Promise<ShiftCandidate[]> {
  if (!want.ids.length && !want.cashiers.length) return [];
  const rows = await db
    .selectFrom('shifts')
    .select(['id', 'cashier_id', 'device_id', 'status', 'closed_at'])
    .where('org_id', '=', scope.orgId)
    .where('store_id', '=', scope.storeId)
    .where((eb) =>
      eb.or([
        ...(want.ids.length ? [eb('id', 'in', want.ids)] : []),
        ...(want.cashiers.length ? [eb.and([eb('cashier_id', 'in', want.cashiers), eb('status', '=', 'open')])] : []),
      ]),
    )
    .execute();
  return rows.map((r) => ({ ...r, closed_at: r.closed_at === null ? null : Number(r.closed_at) }));
}

type Refusal = 'unknown' | 'another_cashier' | 'closed';

/** What the rule made of a shift named: the shift booked (or none) and, when the one named was not, why. */
export interface ShiftPick {
  shiftId: string | null;
  refused?: { reason: Refusal; named: string; shift?: ShiftCandidate };
}

/** Why `c` may not take the booker's money; undefined when it may. */
function refusalOf(c: ShiftCandidate, who: ShiftBooker): Exclude<Refusal, 'unknown'> | undefined {
  const theirs = c.cashier_id === who.userId || ('deviceId' in who ? c.device_id === who.deviceId : overseesShifts(who));
  if (!theirs) return 'another_cashier';
  return c.status === 'open' ? undefined : 'closed';
}

/**
 * The rule itself, over shifts already read: `named` when it may take the money; else the booker's
 * open shift, else `also` (a reversed sale's shift) when it may; a closed shift named books to none.
 */
export function pickShift(
  candidates: ShiftCandidate[],
  named: string | null | undefined,
  who: ShiftBooker,
  also?: string | null,
): ShiftPick {
  const fallback = () => {
    const own = candidates.find((c) => c.cashier_id === who.userId && c.status === 'open');
    const sales = also ? candidates.find((c) => c.id === also) : undefined;
    return own?.id ?? (sales && !refusalOf(sales, who) ? sales.id : null);
  };
  if (!named) return { shiftId: fallback() };
  const shift = candidates.find((c) => c.id === named);
  if (!shift) return { shiftId: fallback(), refused: { reason: 'unknown', named } };
  const reason = refusalOf(shift, who);
  if (!reason) return { shiftId: named };
  return { shiftId: reason === 'closed' ? null : fallback(), refused: { reason, named, shift } };
}

/** A till's shift it may not use, as the conflict recorded for the owner (an unknown id is none: a till's shift the server never opened). */
export function shiftConflict(pick: ShiftPick): SaleConflict | undefined {
  const r = pick.refused;
  if (!r?.shift) return undefined;
  const booked = pick.shiftId ? `the pusher's open shift ${pick.shiftId}` : 'no shift';
  const message =
    r.reason === 'closed'
      ? `the till named shift ${r.named}, closed${r.shift.closed_at === null ? '' : ` at ${iso(r.shift.closed_at)}`}: a counted shift's figures never change, so this is booked to no shift`
      : `the till named shift ${r.named} of another cashier: a till books only into its own cashier's shift or its own till's, so this is booked to ${booked}`;
  return {
    kind: 'shift',
    message,
    detail: { reason: r.reason, named_shift_id: r.named, named_shift_cashier_id: r.shift.cashier_id, booked_shift_id: pick.shiftId },
  };
}

/** A REST caller's shift that may not take the money, as the error answered. */
export function shiftRefusalError(reason: Refusal, named: string): ServiceError {
  if (reason === 'unknown') return new NotFoundError('shift');
  if (reason === 'another_cashier') return new ForbiddenError("a cashier pays out only from their own shift's drawer");
  return new InvalidStateError(`shift ${named} is closed: its drawer was counted; name an open shift, or none`);
}

/**
 * The shift a pick books: a till (`deviceId` in `who`) gets a shift it may not use as a conflict on
 * `conflicts`, its money still booked; a REST caller naming one is refused.
 */
export function settleShift(pick: ShiftPick, who: ShiftBooker, conflicts?: SaleConflict[]): string | null {
  if (!pick.refused) return pick.shiftId;
  if (!('deviceId' in who)) throw shiftRefusalError(pick.refused.reason, pick.refused.named);
  const conflict = shiftConflict(pick);
  if (conflict) conflicts?.push(conflict);
  return pick.shiftId;
}

/** One row's shift by the rule, read and settled. */
export async function shiftFor(
  db: Kysely<Database>,
  scope: ShiftScope,
  who: ShiftBooker,
  opts: { named?: string | null; also?: string | null; conflicts?: SaleConflict[] } = {},
): Promise<string | null> {
  const { named, also } = opts;
  const ids = [...new Set([named, also].filter((id): id is string => !!id))];
  const pick = pickShift(await shiftCandidates(db, scope, { ids, cashiers: [who.userId] }), named, who, also);
  return settleShift(pick, who, opts.conflicts);
}
