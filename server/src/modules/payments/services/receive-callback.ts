/**
 * POST /payments/callbacks/{account_id}: a provider reports a payment into a shop's account. The
 * URL's token is the account's credential (AzamPay signs nothing); a wrong or old token, an
 * unknown or inactive account all answer the same 404, so the route never confirms an account
 * exists. Selcom's signature is then checked with the account's own secret by its driver. A
 * payment is stored once per provider reference (the unique index decides, so two deliveries at
 * once still store one); a pending report is acknowledged and not stored. A paid one is matched,
 * in the same transaction, to the offline sale waiting for it (verify-sales.ts). Nothing here calls
 * out: the provider waits on the answer.
 */
import { newId, toCents } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { ServiceContext } from '../../../lib/context.js';
import { safeEqual } from '../../../lib/crypto.js';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../../lib/errors.js';
import { toE164 } from '../../../lib/phone.js';
import { CallbackRejected, type PaymentCallbackInput, type PaymentResult } from '../../billing/billing.exports.js';
import { accountForCallback, insertReceivedPayment } from '../payments.queries.js';
import { collectionDriver } from './collection-driver.js';
import { matchReceivedPayment } from './verify-sales.js';

/** The body as received is kept for disputes, up to this many characters. */
const RAW_CAP = 4_000;

export async function receiveCollectionCallback(
  ctx: ServiceContext,
  accountId: string,
  input: PaymentCallbackInput,
): Promise<{ received: true; stored: boolean }> {
  const account = await accountForCallback(ctx.db, accountId);
  const given = input.query.token ?? '';
  if (!account || account.active !== 1 || !safeEqual(given, ctx.keys.decrypt(account.callback_token_enc)))
    throw new NotFoundError('collection account');

  let result: PaymentResult;
  try {
    result = collectionDriver(ctx.config, ctx.keys, account).parseCallback(input);
  } catch (err) {
    if (err instanceof CallbackRejected) throw new UnauthenticatedError(`callback rejected: ${err.message}`);
    throw new ValidationError('body', `is not a ${account.provider} payment callback`);
  }
  if (result.outcome === 'pending') return { received: true, stored: false };
  if (!result.providerRef) throw new ValidationError('reference', "is missing: the provider's transaction reference is required");
  const amount = result.amountTzs;
  if (amount === null || !Number.isInteger(amount) || amount <= 0)
    throw new ValidationError('amount', 'must be a whole positive number of shillings');

  const payment = {
    org_id: account.org_id,
    id: newId(),
    account_id: account.id,
    store_id: account.store_id,
    provider: account.provider,
    provider_ref: result.providerRef.slice(0, 200),
    reference: result.reference ? result.reference.slice(0, 200) : null,
    amount: toCents(amount),
    payer_phone: result.payer ? toE164(result.payer.replace(/^255/, '+255')) : null,
    network: result.network ? result.network.slice(0, 40) : null,
    status: result.outcome,
    received_at: ctx.clock.now(),
    raw: input.body.slice(0, RAW_CAP),
    matched_sale_id: null,
  };
  return withTransaction(ctx, async (tx) => {
    const inserted = await insertReceivedPayment(tx.db, payment);
    if (inserted) ctx.log.info({ account_id: account.id, provider_ref: result.providerRef }, 'collection payment received');
    // A sale rung up offline with this payment's reference may be waiting for it.
    if (inserted && payment.status === 'paid') await matchReceivedPayment(tx, account.org_id, inserted.id);
    return { received: true as const, stored: Boolean(inserted) };
  });
}
