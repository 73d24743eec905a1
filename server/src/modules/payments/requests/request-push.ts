/**
 * The life of a payment request around its push: the stock it holds, the push to the customer's
 * phone (after commit, never inside a transaction), the end of a wait (failed, cancelled, expired)
 * with its stock given back in the same transaction, and the websocket message after each commit.
 *
 * A push the provider refused for good fails the request at once. One that got no answer (a
 * timeout, a network error, a 5xx) may still have reached the phone, so the request keeps waiting:
 * the callback, the status query (Selcom) or the end of the wait settles it.
 */
import type { CollectionProvider, PaymentRequestStatus } from '@duka/shared';
import { fromCents } from '@duka/shared';
import type { CollectionAccountRow, PaymentRequestRow } from '../../../db/tables/collection.table.js';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import type { ServiceContext, TxContext } from '../../../lib/context.js';
import { PaymentRejected } from '../../../mobile-money/provider.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { findRequest, stateOf, transition } from './requests.queries.js';
import { collectionDriver } from '../accounts/collection-driver.js';
import type { HeldSale, SaleHold } from './sale-booking-port.js';

/**
 * How long a push waits for its answer. A USSD prompt lives about a minute on the customer's phone;
 * the rest is for a callback that is slow to come.
 */
export const PUSH_WAIT_MS = 3 * 60_000;
/** When a provider that answers status queries is asked about a push: after 30 s, then 1, 2 and 4 min. */
export const CHECK_BACKOFF_MS = [30_000, 60_000, 120_000, 240_000] as const;
/** Selcom has an order status query; AzamPay's mobile checkout has none (its driver answers pending). */
export const canQuery = (provider: CollectionProvider) => provider === 'selcom';
/** The next status query after `checks` of them, or null for a provider that has none. */
export const nextCheckAt = (provider: CollectionProvider, checks: number, now: number) =>
  canQuery(provider) ? now + CHECK_BACKOFF_MS[Math.min(checks, CHECK_BACKOFF_MS.length - 1)]! : null;

const MAX_DETAIL = 500;
export const heldOf = (row: PaymentRequestRow): HeldSale => JSON.parse(row.sale_input) as HeldSale;

/** Tills of the request's store hear its new state once the transaction commits. */
export function publish(ctx: ServiceContext, row: PaymentRequestRow): void {
  afterCommit(ctx, () => ctx.realtime.payment(row.org_id, row.store_id, stateOf(row)));
}

/** Take (`sign` -1) or give back (+1) a held sale's stock, in product order as every stock write locks rows. */
export async function moveHeld(tx: TxContext, row: PaymentRequestRow, holds: SaleHold[], sign: 1 | -1): Promise<void> {
  for (const h of [...holds].sort((a, b) => a.product_id.localeCompare(b.product_id)))
    await changeStockLevel(tx, {
      orgId: row.org_id,
      storeId: row.store_id,
      productId: h.product_id,
      productName: h.product_name,
      delta: sign * h.qty,
      field: `sale.${h.field}`,
    });
}

/**
 * End a wait: the request leaves one of `from` for `status` and its stock comes back, in the
 * caller's transaction; undefined (and nothing moved) when something else moved it first.
 */
export async function endRequest(
  tx: TxContext,
  row: PaymentRequestRow,
  status: Extract<PaymentRequestStatus, 'failed' | 'cancelled' | 'expired'>,
  detail: string,
  from: PaymentRequestStatus[] = ['awaiting_payment'],
): Promise<PaymentRequestRow | undefined> {
  const after = await transition(tx.db, row, from, {
    status,
    detail: detail.slice(0, MAX_DETAIL),
    next_check_at: null,
    sale_id: null,
    updated_at: tx.clock.now(),
  });
  if (!after) return undefined;
  await moveHeld(tx, after, heldOf(after).holds, 1);
  publish(tx, after);
  return after;
}

/** Ask the customer's phone for the request's current attempt; the request as it stands after. */
export async function pushRequest(ctx: ServiceContext, account: CollectionAccountRow, row: PaymentRequestRow): Promise<PaymentRequestRow> {
  try {
    const started = await collectionDriver(ctx.config, ctx.keys, account).startPush({
      reference: row.reference,
      amountTzs: fromCents(Number(row.amount)),
      phone: row.phone.replace(/^\+/, ''),
      network: row.network,
      description: `Sale ${row.reference}`,
    });
    const detail = "asked the customer's phone: waiting for them to confirm";
    const after = await transition(ctx.db, row, ['awaiting_payment'], {
      provider_ref: started.providerRef,
      detail,
      updated_at: ctx.clock.now(),
    });
    if (after) publish(ctx, after);
  } catch (err) {
    if (!(err instanceof PaymentRejected)) {
      // Not the provider's answer: the driver failed before it sent anything (its credentials, say).
      ctx.log.error({ err, request_id: row.id }, 'payment push could not be sent');
      await withTransaction(ctx, (tx) => endRequest(tx, row, 'failed', 'the push could not be sent: check the collection account'));
    } else if (err.permanent) await withTransaction(ctx, (tx) => endRequest(tx, row, 'failed', err.reason));
    else {
      ctx.log.warn({ err, request_id: row.id }, 'payment push got no answer');
      await withTransaction(ctx, async (tx) => {
        const detail = `${err.reason}: the push may still reach the phone; waiting for the answer`;
        const after = await transition(tx.db, row, ['awaiting_payment'], {
          detail: detail.slice(0, MAX_DETAIL),
          updated_at: tx.clock.now(),
        });
        if (after) publish(tx, after);
      });
    }
  }
  return (await findRequest(ctx.db, row.org_id, row.id))!;
}
