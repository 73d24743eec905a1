/**
 * POST /payments/requests and GET /payments/requests/{id}: a cashier asks the customer's phone for
 * a sale's payment. The sale is priced and checked by pos's own rules (sale-booking-port.ts), its
 * stock held and the request written in one transaction; the push goes out after the commit, and
 * the sale is booked only when the provider says it is paid (request-outcome.ts). The request's id
 * is the sale's client id: asking again with the same body answers the request as it stands.
 */
import { type CreatePaymentRequestInput, NETWORK_OF_METHOD, type PaymentRequest } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { CollectionAccountRow, PaymentRequestRow } from '../../../db/tables/collection.table.js';
import { withTransaction } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext, TxContext } from '../../../lib/context.js';
import { BusinessRuleError, ConflictError, NotFoundError, ServiceError } from '../../../lib/errors.js';
import { collectingAccount, findAccount } from '../accounts/collection-accounts.queries.js';
import { findRequest, insertRequest, toPaymentRequest } from './requests.queries.js';
import { canQuery, heldOf, moveHeld, nextCheckAt, PUSH_WAIT_MS, publish, pushRequest } from './request-push.js';
import { type HeldSale, type SaleQuote, saleBooking } from './sale-booking-port.js';

/** The store's active account: its own, else the organisation-wide one; none is a 409 the till falls back on. */
export async function storeAccount(db: Kysely<Database>, orgId: string, storeId: string): Promise<CollectionAccountRow> {
  const account = await collectingAccount(db, orgId, storeId);
  if (!account)
    throw new ConflictError('no mobile-money collection account for this store: take the payment with the reference from the SMS');
  return account;
}

/** The store's request, or 404 (another store's or organisation's id included). */
export async function ownRequest(ctx: ServiceContext, at: { orgId: string; storeId: string }, id: string): Promise<PaymentRequestRow> {
  const row = await findRequest(ctx.db, at.orgId, id);
  if (!row || row.store_id !== at.storeId) throw new NotFoundError('payment request');
  return row;
}

/** The request as the API answers it, its sale read once paid. */
export async function requestAnswer(ctx: ServiceContext, row: PaymentRequestRow): Promise<PaymentRequest> {
  const account = await findAccount(ctx.db, row.org_id, row.account_id);
  const at = { orgId: row.org_id, storeId: row.store_id };
  const sale = row.sale_id ? await saleBooking(ctx).sale(ctx, at, row.sale_id) : null;
  return toPaymentRequest(row, account ? canQuery(account.provider) : false, sale);
}

/**
 * The sale worked out now, under the sale's locks, refused as POST /pos/sale refuses it (its
 * fields under `sale.`); providers take whole shillings, so a total with cents is refused too.
 */
export async function quoteHeld(tx: TxContext<AuthedContext>, sale: HeldSale['sale']): Promise<SaleQuote> {
  let quote: SaleQuote;
  try {
    quote = await saleBooking(tx).quote(tx, sale);
  } catch (err) {
    if (!(err instanceof ServiceError) || !err.extra.errors) throw err;
    const errors = err.extra.errors.map((e) => ({ ...e, field: e.field && `sale.${e.field}` }));
    throw new ServiceError(err.code, err.message, { ...err.extra, swahili: undefined, errors });
  }
  if (quote.total % 100 !== 0)
    throw new BusinessRuleError(
      `the total (${quote.total / 100} TZS) is not whole shillings, which is all mobile money takes: change the discount or a price`,
      'BUSINESS_RULE',
      'sale',
    );
  return quote;
}

/** Thrown inside the transaction when another ask with the same id committed first. */
class AskedMeanwhile extends Error {}

export async function createPaymentRequest(
  ctx: AuthedContext,
  input: CreatePaymentRequestInput,
): Promise<{ request: PaymentRequest; created: boolean }> {
  const { orgId, storeId } = requireStore(ctx);
  const account = await storeAccount(ctx.db, orgId, storeId);
  const network = input.network ?? NETWORK_OF_METHOD[input.sale.payment_method];
  const replay = async (row: PaymentRequestRow) => {
    const same =
      row.store_id === storeId &&
      JSON.stringify(heldOf(row).sale) === JSON.stringify(input.sale) &&
      row.phone === input.phone &&
      row.network === network;
    if (!same) throw new ConflictError(`a payment request with id ${row.id} was already made with another sale, phone or wallet`);
    return { request: await requestAnswer(ctx, row), created: false };
  };
  const before = await findRequest(ctx.db, orgId, input.sale.id);
  if (before) return replay(before);

  let row: PaymentRequestRow;
  try {
    row = await withTransaction(ctx, async (tx) => {
      const quote = await quoteHeld(tx, input.sale);
      const now = tx.clock.now();
      const held: HeldSale = { sale: input.sale, unit_prices: quote.unit_prices, holds: quote.holds };
      const inserted = await insertRequest(tx.db, {
        org_id: orgId,
        id: input.sale.id,
        store_id: storeId,
        account_id: account.id,
        device_id: null,
        cashier_id: ctx.actor.userId,
        sale_input: JSON.stringify(held),
        method: input.sale.payment_method,
        phone: input.phone,
        network,
        amount: quote.total,
        status: 'awaiting_payment',
        detail: null,
        reference: input.sale.id,
        provider_ref: null,
        received_payment_id: null,
        sale_id: null,
        next_check_at: nextCheckAt(account.provider, 0, now),
        expires_at: now + PUSH_WAIT_MS,
        created_at: now,
        updated_at: now,
      });
      if (!inserted) throw new AskedMeanwhile();
      await moveHeld(tx, inserted, quote.holds, -1);
      publish(tx, inserted);
      return inserted;
    });
  } catch (err) {
    if (!(err instanceof AskedMeanwhile)) throw err;
    return replay((await findRequest(ctx.db, orgId, input.sale.id))!);
  }
  return { request: await requestAnswer(ctx, await pushRequest(ctx, account, row)), created: true };
}

export async function getPaymentRequest(ctx: AuthedContext, id: string): Promise<PaymentRequest> {
  return requestAnswer(ctx, await ownRequest(ctx, requireStore(ctx), id));
}
