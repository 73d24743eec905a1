/**
 * The cashier's moves on a payment request: cancel it (the customer walked away, or pays cash) and
 * retry it (a failed, expired or cancelled push asked again, maybe of another phone). Each is one
 * transaction, conditional on the status and attempt the cashier saw, so a callback racing it
 * either wins (the sale is paid and the cancel answers 409) or finds the request moved.
 */
import { type PaymentRequest, type PaymentRequestStatus, RETRYABLE_REQUEST, type RetryPaymentRequestInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError } from '../../../lib/errors.js';
import { transition } from './requests.queries.js';
import { ownRequest, quoteHeld, requestAnswer, storeAccount } from './payment-requests.js';
import { endRequest, heldOf, moveHeld, nextCheckAt, PUSH_WAIT_MS, publish, pushRequest } from './request-push.js';

const ALREADY_PAID = 'already paid: refund the sale instead';

/**
 * Cancels a waiting request and gives its stock back. Cancelled already, or failed or expired (its
 * stock is back already), it is answered as it is; paid, it is a 409.
 */
export async function cancelPaymentRequest(ctx: AuthedContext, id: string): Promise<PaymentRequest> {
  const at = requireStore(ctx);
  const row = await ownRequest(ctx, at, id);
  if (row.status === 'paid') throw new ConflictError(ALREADY_PAID);
  if (row.status !== 'awaiting_payment') return requestAnswer(ctx, row);
  const cancelled = await withTransaction(ctx, (tx) => endRequest(tx, row, 'cancelled', 'cancelled by the cashier'));
  if (cancelled) return requestAnswer(ctx, cancelled);
  // Something moved it first: a callback (paid or failed) or another cancel.
  const now = await ownRequest(ctx, at, id);
  if (now.status === 'paid') throw new ConflictError(ALREADY_PAID);
  return requestAnswer(ctx, now);
}

/** A new attempt: priced and checked again, its stock held again, reference `<id>.<attempt>`, a new push. */
export async function retryPaymentRequest(ctx: AuthedContext, id: string, input: RetryPaymentRequestInput): Promise<PaymentRequest> {
  const at = requireStore(ctx);
  const row = await ownRequest(ctx, at, id);
  if (row.status === 'paid') throw new ConflictError(ALREADY_PAID);
  if (!RETRYABLE_REQUEST.includes(row.status))
    throw new ConflictError('the customer is still being asked: cancel the request before asking again');
  const account = await storeAccount(ctx.db, at.orgId, at.storeId);
  const held = heldOf(row);
  const retried = await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const attempt = Number(row.attempt) + 1;
    // The request's row first, then the sale's locks (store, stock): the order a callback takes them in.
    const moved = await transition(tx.db, row, RETRYABLE_REQUEST as PaymentRequestStatus[], {
      status: 'awaiting_payment',
      attempt,
      reference: `${row.id}.${attempt}`,
      account_id: account.id,
      phone: input.phone ?? row.phone,
      network: input.network ?? row.network,
      detail: null,
      provider_ref: null,
      received_payment_id: null,
      next_check_at: nextCheckAt(account.provider, 0, now),
      checks: 0,
      expires_at: now + PUSH_WAIT_MS,
      updated_at: now,
    });
    if (!moved) throw new ConflictError('the request changed meanwhile: read it again');
    const quote = await quoteHeld(tx, held.sale);
    const sale_input = JSON.stringify({ sale: held.sale, unit_prices: quote.unit_prices, holds: quote.holds });
    const priced = await transition(tx.db, moved, ['awaiting_payment'], { amount: quote.total, sale_input });
    await moveHeld(tx, priced!, quote.holds, -1);
    publish(tx, priced!);
    return priced!;
  });
  return requestAnswer(ctx, await pushRequest(ctx, account, retried));
}
