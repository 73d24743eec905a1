/**
 * POST /payments/callbacks/{account_id}: a provider reports a payment into a shop's account. The
 * URL's token is the account's credential (AzamPay signs nothing); a wrong or old token, an
 * unknown or inactive account all answer the same 404, so the route never confirms an account
 * exists. Selcom's signature is then checked with the account's own secret by its driver. A
 * payment is stored once per provider reference (the unique index decides, so two deliveries at
 * once still store one); a pending report is acknowledged and not stored. Nothing here calls out:
 * the provider waits on the answer.
 *
 * A payment whose reference names a payment request of the account's organisation (a push at
 * checkout) is applied to it in the same transaction as its insert (request-outcome.ts): paid,
 * the held sale is booked and the payment matched to it. A repeat of a stored reference changes
 * nothing, whichever of the callback and the status query came first. A paid one left unclaimed is
 * matched, in the same transaction, to the offline sale waiting for it (verify-sales.ts).
 */
import { newId, toCents } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { ServiceContext } from '../../../lib/context.js';
import { safeEqual } from '../../../lib/crypto.js';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../../lib/errors.js';
import { toE164 } from '../../../lib/phone.js';
import { CallbackRejected, type PaymentCallbackInput, type PaymentResult } from '../../../mobile-money/provider.js';
import { accountForCallback } from '../accounts/collection-accounts.queries.js';
import { collectionDriver } from '../accounts/collection-driver.js';
import { applyToRequest, requestNamed } from '../requests/request-outcome.js';
import { insertReceivedPayment } from './received-payments.queries.js';
import { matchReceivedPayment } from './verify-sales.js';

/** The body as received is kept for disputes, up to this many characters. */
const RAW_CAP = 4_000;

export async function receiveCollectionCallback(
  ctx: ServiceContext,
  accountId: string,
  input: PaymentCallbackInput,
): Promise<{ received: true; stored: boolean }> {
  const account = await accountForCallback(ctx.db, accountId);
  const token = input.query.token ?? '';
  if (!account || account.active !== 1 || !safeEqual(token, ctx.keys.decrypt(account.callback_token_enc)))
    throw new NotFoundError('collection account');

  let result: PaymentResult;
  try {
    result = collectionDriver(ctx.config, ctx.keys, account).parseCallback(input);
  } catch (err) {
    if (err instanceof CallbackRejected) throw new UnauthenticatedError(`callback rejected: ${err.message}`);
    throw new ValidationError('body', `is not a ${account.provider} payment callback`);
  }
  const { outcome, providerRef } = result;
  if (outcome === 'pending') return { received: true, stored: false };
  if (!providerRef) throw new ValidationError('reference', "is missing: the provider's transaction reference is required");
  const given = result.amountTzs;
  if (given !== null && (!Number.isInteger(given) || given <= 0))
    throw new ValidationError('amount', 'must be a whole positive number of shillings');

  const stored = await withTransaction(ctx, async (tx) => {
    const named = await requestNamed(tx, account.org_id, result.reference);
    // A report without an amount (Selcom's webhook has none) confirms the order at the amount it asked.
    const amount = given === null ? (named ? Number(named.row.amount) : null) : toCents(given);
    if (amount === null) throw new ValidationError('amount', 'is missing, and no payment request of ours names this payment');
    const inserted = await insertReceivedPayment(tx.db, {
      org_id: account.org_id,
      id: newId(),
      account_id: account.id,
      store_id: account.store_id,
      provider: account.provider,
      provider_ref: providerRef.slice(0, 200),
      reference: result.reference ? result.reference.slice(0, 200) : null,
      amount,
      payer_phone: result.payer ? toE164(result.payer.replace(/^255/, '+255')) : null,
      network: result.network ? result.network.slice(0, 40) : null,
      status: outcome,
      received_at: tx.clock.now(),
      raw: input.body.slice(0, RAW_CAP),
      matched_sale_id: null,
      matched_at: null,
      wallet_ref: result.walletRef ? result.walletRef.slice(0, 200) : null,
    });
    if (!inserted) return false;
    if (named) await applyToRequest(tx, named.row, named.attempt, result, inserted.id);
    // Paid and still unclaimed (no push asked for it, or its push was over): a sale rung up with
    // this payment's reference from the customer's SMS may be waiting for it (verify-sales.ts).
    if (outcome === 'paid') await matchReceivedPayment(tx, account.org_id, inserted.id);
    return true;
  });
  if (stored) ctx.log.info({ account_id: account.id, provider_ref: providerRef }, 'collection payment received');
  return { received: true, stored };
}
