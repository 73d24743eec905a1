/** The shifts table and what moved money in a shift, every read scoped by organisation (and store). */
import type { TillShift, ShiftMovement } from '@duka/shared';
import { fromCents } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ShiftRow } from '../../db/tables/shifts.table.js';
import { iso } from '../../lib/clock.js';

export interface StoreScope {
  orgId: string;
  storeId: string;
}

export function toShift(row: ShiftRow): TillShift {
  return {
    id: row.id,
    store_id: row.store_id,
    cashier_id: row.cashier_id,
    till_number: row.till_number,
    device_id: row.device_id,
    status: row.status,
    opening_float: fromCents(Number(row.opening_float)),
    open_note: row.open_note,
    close_note: row.close_note,
    opened_at: iso(Number(row.opened_at)),
    closed_at: row.closed_at === null ? null : iso(Number(row.closed_at)),
    closed_by: row.closed_by,
    over_short: row.over_short === null ? null : fromCents(Number(row.over_short)),
  };
}

/** The store's shifts: every read of this area starts here, so scoping lives in one place. */
export const storeShifts = (db: Kysely<Database>, scope: StoreScope) =>
  db.selectFrom('shifts').where('org_id', '=', scope.orgId).where('store_id', '=', scope.storeId);

export const findStoreShift = (db: Kysely<Database>, scope: StoreScope, id: string) =>
  storeShifts(db, scope).selectAll().where('id', '=', id).executeTakeFirst();

/** A shift of the organisation by id, in any store (a till's id reused elsewhere). */
export const findOrgShift = (db: Kysely<Database>, orgId: string, id: string) =>
  db.selectFrom('shifts').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

export const openShiftOf = (db: Kysely<Database>, scope: StoreScope, cashierId: string) =>
  storeShifts(db, scope).selectAll().where('cashier_id', '=', cashierId).where('status', '=', 'open').executeTakeFirst();

/** A new open shift; the row as written. */
export function insertShift(
  db: Kysely<Database>,
  s: Pick<
    ShiftRow,
    'org_id' | 'id' | 'store_id' | 'cashier_id' | 'device_id' | 'till_number' | 'opening_float' | 'open_note' | 'opened_at'
  > & {
    now: number;
  },
) {
  const { now, ...fields } = s;
  return db
    .insertInto('shifts')
    .values({
      ...fields,
      status: 'open',
      close_note: null,
      over_short: null,
      closed_at: null,
      closed_by: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Close the shift if it is still open: undefined when another close got there first. */
export function claimClose(
  db: Kysely<Database>,
  shift: ShiftRow,
  by: { userId: string; at: number; now: number; note: string | null; overShort: number },
) {
  return db
    .updateTable('shifts')
    .set({ status: 'closed', closed_at: by.at, closed_by: by.userId, close_note: by.note, over_short: by.overShort, updated_at: by.now })
    .where('org_id', '=', shift.org_id)
    .where('id', '=', shift.id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** What was counted at close, per method (cents). */
export async function countedAtClose(db: Kysely<Database>, orgId: string, shiftId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('shift_counts')
    .select(['method', 'counted'])
    .where('org_id', '=', orgId)
    .where('shift_id', '=', shiftId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.method, Number(r.counted)]));
}

type Grouped = { method: string; amount: string | number | bigint | null; n: string | number | bigint };
const movements = (kind: ShiftMovement['kind'], rows: Grouped[]): ShiftMovement[] =>
  rows.map((r) => ({ kind, method: r.method, amount: Number(r.amount ?? 0), count: Number(r.n) }));

/**
 * A shift's sales (or the sales it paid back), summed per part's method (issue 51: a sale paid 5,000
 * cash + 7,500 M-Pesa is 5,000 in the drawer and 7,500 in the wallet; a cash part is net of its
 * change). A sale counts once, under its first part's method, so the report's count is of sales.
 */
function partsOf(db: Kysely<Database>, orgId: string, shiftId: string, column: 'shift_id' | 'reversal_shift_id') {
  let q = db
    .selectFrom('transactions as t')
    .innerJoin('transaction_payments as tp', (j) => j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id'))
    .select((eb) => [
      'tp.method as method',
      eb.fn.sum<number>('tp.amount').as('amount'),
      eb.fn.sum<number>(eb.case().when('tp.seq', '=', 1).then(1).else(0).end()).as('n'),
    ])
    .where('t.org_id', '=', orgId)
    .where(`t.${column}`, '=', shiftId);
  // A sale refunded in parts gave its money back refund by refund (`refundParts`), not whole: its own count of them says so.
  if (column === 'reversal_shift_id') q = q.where('t.part_refunds', '=', 0);
  return q.groupBy('tp.method').execute();
}

/** The refunds of part of a sale made in a shift (issue 51), per method; each refund counts once. */
function refundParts(db: Kysely<Database>, orgId: string, shiftId: string) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('refund_parts as rp', (j) => j.onRef('rp.org_id', '=', 'r.org_id').onRef('rp.refund_id', '=', 'r.id'))
    .select((eb) => [
      'rp.method as method',
      eb.fn.sum<number>('rp.amount').as('amount'),
      // Once per refund, under the first of its methods by name (a refund may give back by two).
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              'rp.method',
              '=',
              eb
                .selectFrom('refund_parts as first')
                .select((f) => f.fn.min('first.method').as('m'))
                .whereRef('first.org_id', '=', 'rp.org_id')
                .whereRef('first.refund_id', '=', 'rp.refund_id'),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('n'),
    ])
    .where('r.org_id', '=', orgId)
    .where('r.shift_id', '=', shiftId)
    .groupBy('rp.method')
    .execute();
}

/**
 * The money that moved in a shift, summed per kind and method: its sales (whatever became of them
 * since: the sale's money came in), the refunds and voids made in it (each part back by its
 * method), its payouts and its credit payments. Four grouped reads, whatever the shift's size.
 */
export async function shiftMovements(db: Kysely<Database>, orgId: string, shiftId: string): Promise<ShiftMovement[]> {
  const [sales, reversals, refunds, payouts, payments] = await Promise.all([
    partsOf(db, orgId, shiftId, 'shift_id'),
    partsOf(db, orgId, shiftId, 'reversal_shift_id'),
    refundParts(db, orgId, shiftId),
    db
      .selectFrom('expenses')
      .select((eb) => ['payment_method as method', eb.fn.sum<number>('amount').as('amount'), eb.fn.countAll<number>().as('n')])
      .where('org_id', '=', orgId)
      .where('shift_id', '=', shiftId)
      .groupBy('payment_method')
      .execute(),
    db
      .selectFrom('credit_payments')
      .select((eb) => ['method', eb.fn.sum<number>('amount').as('amount'), eb.fn.countAll<number>().as('n')])
      .where('org_id', '=', orgId)
      .where('shift_id', '=', shiftId)
      .groupBy('method')
      .execute(),
  ]);
  return [
    ...movements('sale', sales),
    ...movements('reversal', reversals),
    ...movements('reversal', refunds),
    ...movements('payout', payouts),
    ...movements('credit_payment', payments),
  ];
}

/** The cashier's name as a report prints it. */
export async function cashierName(db: Kysely<Database>, orgId: string, userId: string): Promise<string | null> {
  const u = await db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', userId)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return u ? `${u.first_name} ${u.last_name}`.trim() : null;
}
