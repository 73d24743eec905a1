/**
 * What a provider said about a payment request, applied once: the callback route and the status
 * query both come here, inside the transaction that stored the received payment, so a payment is
 * stored, matched and its sale booked together or not at all. The sale is booked by pos, through
 * the sale-booking port (sale-booking-port.ts names its implementation).
 *
 * Only the current attempt of a request still waiting can be paid or failed by it. Every step is a
 * conditional update on the request's status and attempt, so of two answers at once (a webhook
 * delivered twice, a webhook racing the status query or the cashier's cancel) one moves it and the
 * other finds it moved and changes nothing. A payment for an older attempt, a cancelled, expired or
 * failed request, or of another amount, is left unmatched in the inbox for the owner: it never
 * pays another sale.
 */
import { fromCents, type Role, toCents } from '@duka/shared';
import type { PaymentRequestRow } from '../../../db/tables/collection.table.js';
import { withSavepoint } from '../../../db/transaction.js';
import type { Actor, TxContext } from '../../../lib/context.js';
import { ConflictError, ServiceError } from '../../../lib/errors.js';
import type { PaymentResult } from '../../../mobile-money/provider.js';
import { findOrgUser, permsOf } from '../../tenancy/tenancy.exports.js';
import { matchToBookedSale } from '../inbox/received-payments.queries.js';
import { findRequest, transition } from './requests.queries.js';
import { endRequest, heldOf, publish } from './request-push.js';
import { saleBooking } from './sale-booking-port.js';

const REFERENCE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.([1-9]\d{0,3}))?$/i;

/** The request a provider's reference names (`<id>` for the first attempt, `<id>.<n>` after), and which attempt. */
export async function requestNamed(
  tx: TxContext,
  orgId: string,
  reference: string | null | undefined,
): Promise<{ row: PaymentRequestRow; attempt: number } | null> {
  const m = REFERENCE.exec(reference ?? '');
  if (!m) return null;
  const row = await findRequest(tx.db, orgId, m[1]!);
  return row ? { row, attempt: m[2] ? Number(m[2]) : 1 } : null;
}

const tzs = (cents: number) => fromCents(cents).toLocaleString('en');

/** Apply `result` for `attempt` of the request; `receivedId` is the payment it stored, if any. True when it paid the request. */
export async function applyToRequest(
  tx: TxContext,
  row: PaymentRequestRow,
  attempt: number,
  result: PaymentResult,
  receivedId: string | null,
): Promise<boolean> {
  if (result.outcome === 'pending') return false;
  if (attempt !== Number(row.attempt) || row.status !== 'awaiting_payment') {
    tx.log.info(
      { request_id: row.id, attempt, status: row.status, outcome: result.outcome },
      'payment result for a settled attempt: not applied',
    );
    return false;
  }
  if (result.outcome === 'failed') {
    await endRequest(tx, row, 'failed', result.detail || 'the payment failed');
    return false;
  }
  // A provider that does not say the amount confirmed the order it was given, at the amount asked.
  const paid = result.amountTzs === null ? Number(row.amount) : toCents(result.amountTzs);
  if (paid !== Number(row.amount)) {
    await endRequest(tx, row, 'failed', `the customer paid ${tzs(paid)} TZS, the sale is ${tzs(Number(row.amount))} TZS`);
    return false;
  }
  return bookPaid(tx, row, result.providerRef ?? row.provider_ref ?? row.reference, receivedId);
}

async function bookPaid(tx: TxContext, row: PaymentRequestRow, providerRef: string, receivedId: string | null): Promise<boolean> {
  const now = tx.clock.now();
  const paid = await transition(tx.db, row, ['awaiting_payment'], {
    status: 'paid',
    sale_id: row.id,
    provider_ref: providerRef.slice(0, 200),
    received_payment_id: receivedId,
    detail: 'paid',
    next_check_at: null,
    updated_at: now,
  });
  if (!paid) return false;
  try {
    const booked = await withSavepoint(tx, async () =>
      saleBooking(tx).book({ ...tx, actor: await cashierOf(tx, row) }, heldOf(row), { reference: providerRef, phone: row.phone }),
    );
    if (booked.conflicts.length) tx.log.warn({ request_id: row.id, conflicts: booked.conflicts }, 'paid sale booked despite its conflicts');
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    // The money is in: the payment stays unmatched in the inbox and the owner settles it by hand.
    await endRequest(tx, paid, 'failed', `paid, but the sale could not be booked (${err.message}): refund the customer or sell it again`, [
      'paid',
    ]);
    return false;
  }
  if (receivedId) await matchToBookedSale(tx.db, row.org_id, receivedId, row.id, now);
  publish(tx, paid);
  return true;
}

/** The sale is booked as the cashier who asked for the payment, with their permissions as they are now. */
async function cashierOf(tx: TxContext, row: PaymentRequestRow): Promise<Actor> {
  const user = row.cashier_id ? await findOrgUser(tx.db, row.org_id, row.cashier_id) : undefined;
  if (!user) throw new ConflictError('the cashier who asked for the payment is not a member of the shop any more');
  return { userId: user.id, orgId: row.org_id, storeId: row.store_id, role: user.role as Role, perms: permsOf(user), amr: [], sid: '' };
}
