/** Payment requests (pushes at checkout): every statement names the organisation, but the job's scans. */
import { fromCents, type PaymentRequest, type PaymentRequestState, type PaymentRequestStatus, type Transaction } from '@duka/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { PaymentRequestRow, PaymentRequestTable } from '../../../db/tables/collection.table.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { iso } from '../../../lib/clock.js';

export const stateOf = (row: PaymentRequestRow): PaymentRequestState => ({
  id: row.id,
  status: row.status,
  detail: row.detail,
  attempt: Number(row.attempt),
  sale_id: row.sale_id,
});

export function toPaymentRequest(row: PaymentRequestRow, canQuery: boolean, sale: Transaction | null): PaymentRequest {
  return {
    ...stateOf(row),
    method: row.method as PaymentRequest['method'],
    network: row.network,
    phone: row.phone,
    amount: fromCents(Number(row.amount)),
    can_query: canQuery,
    sale,
    expires_at: iso(Number(row.expires_at)),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

export const findRequest = (db: Kysely<Database>, orgId: string, id: string) =>
  db.selectFrom('payment_requests').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

/** The new row, or undefined when a request with this id already exists (two asks at once). */
export const insertRequest = (db: Kysely<Database>, row: Insertable<PaymentRequestTable>) =>
  db
    .insertInto('payment_requests')
    .values(row)
    .onConflict((oc) => oc.columns(['org_id', 'id']).doNothing())
    .returningAll()
    .executeTakeFirst();

/**
 * Move a request on only while it is still in one of `from` and at the attempt it was read at:
 * the row after, or undefined when a callback, the job or the cashier moved it first.
 */
export function transition(
  db: Kysely<Database>,
  row: Pick<PaymentRequestRow, 'org_id' | 'id' | 'attempt'>,
  from: PaymentRequestStatus[],
  changes: Updateable<PaymentRequestTable>,
) {
  return db
    .updateTable('payment_requests')
    .set(changes)
    .where('org_id', '=', row.org_id)
    .where('id', '=', row.id)
    .where('status', 'in', from)
    .where('attempt', '=', Number(row.attempt))
    .returningAll()
    .executeTakeFirst();
}

/** Waiting requests whose provider is due a status query (before their end). */
export const dueForCheck = (db: Kysely<Database>, now: number, limit: number) =>
  db
    .selectFrom('payment_requests')
    .selectAll()
    .where('status', '=', 'awaiting_payment')
    .where('next_check_at', '<=', now)
    .where('expires_at', '>', now)
    .orderBy('next_check_at')
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();

/** Waiting requests past their end. */
export const pastTheirEnd = (db: Kysely<Database>, now: number, limit: number) =>
  db
    .selectFrom('payment_requests')
    .selectAll()
    .where('status', '=', 'awaiting_payment')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();

/**
 * Claim a request's next status query: only the instance whose update still finds the check time
 * it read goes on, so two never ask the provider about one request at once.
 */
export function claimCheck(db: Kysely<Database>, row: PaymentRequestRow, next: number | null) {
  return db
    .updateTable('payment_requests')
    .set({ next_check_at: next, checks: Number(row.checks) + 1 })
    .where('org_id', '=', row.org_id)
    .where('id', '=', row.id)
    .where('status', '=', 'awaiting_payment')
    .where('checks', '=', Number(row.checks))
    .executeTakeFirst();
}
