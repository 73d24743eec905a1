/**
 * Mobile money at the till (issue 38). Online, the till asks the server to request the sale's
 * payment from the customer's phone (a push): the server holds the sale's stock until the provider
 * says paid, failed, or the cashier cancels, and the sale gets its receipt number only when paid.
 * The request's id is the sale's, given here, and the push is kept in the replica until it ends
 * (`sync/payment-watch.ts` follows it). Offline, or in a store without a collection account, the
 * till takes the SMS path: an ordinary `sell()` with `payment_phone` and the SMS's reference,
 * recorded unverified until the server matches it to a payment the provider reported.
 *
 * Paying in cash instead is a cancel, then an ordinary cash sale with the same id. The cancel must
 * reach the server first (else the customer could still pay the push, and the sale be taken
 * twice); once the server has said the push is over, the cash sale is made offline like any other.
 */
import {
  CreatePaymentRequestInput,
  type MobileNetwork,
  MobileNetwork as MobileNetworks,
  newId,
  type PaymentRequest,
  parseTzMobile,
  RETRYABLE_REQUEST,
} from '@duka/shared';
import type { AuthSession } from '../auth.js';
import { NetworkError, TillError } from '../errors.js';
import { DukaApiError } from '../http/errors.js';
import type { HeldPayment } from '../local/meta.js';
import * as reads from '../reads.js';
import { heldPayments, type PaymentWatch, paymentCall, putHeld } from '../sync/payment-watch.js';
import type { AskMobilePaymentInput, Receipt, RetryMobilePaymentInput } from '../types.js';
import { type ActionCtx, invalid } from './context.js';
import { sell } from './sale/sell.js';

export interface MobileMoneyCtx {
  actions: ActionCtx;
  auth: AuthSession;
  watch: PaymentWatch;
}

/** Why a push cannot be asked now; the app offers the SMS path either way. */
export type PushUnavailableReason = 'offline' | 'no_collection_account';

/** The till cannot ask the customer's phone now (`code` PUSH_UNAVAILABLE): take the reference from their SMS instead. */
export class PushUnavailableError extends TillError {
  constructor(
    readonly reason: PushUnavailableReason,
    message: string,
  ) {
    super('PUSH_UNAVAILABLE', message);
    this.name = 'PushUnavailableError';
  }
}

const SMS_PATH = "sell with the customer's number (payment_phone) and the reference from their SMS (payment_reference)";
const NO_ACCOUNT = 'no mobile-money collection account';

function phoneOf(typed: string, field: string): string {
  const parsed = parseTzMobile(typed);
  if (!parsed.ok) throw new TillError('VALIDATION_ERROR', `${field} ${parsed.message}`, field);
  return parsed.e164;
}

function networkOf(network: unknown): MobileNetwork | undefined {
  if (network === undefined) return undefined;
  if (!MobileNetworks.safeParse(network).success)
    throw new TillError('VALIDATION_ERROR', `network must be one of ${MobileNetworks.options.join(', ')}`, 'network');
  return network as MobileNetwork;
}

/** Ask the customer's phone for the sale's payment; answers the request, awaiting the customer. */
export async function askMobilePayment(m: MobileMoneyCtx, input: AskMobilePaymentInput): Promise<PaymentRequest> {
  // A push asks the customer's phone for the whole sale; part of a sale by mobile money is the SMS path.
  if ((input as { payments?: unknown }).payments !== undefined)
    throw new TillError(
      'VALIDATION_ERROR',
      "payments: the customer's phone is asked for a whole sale only; for a sale paid several ways, sell with payments and the mobile-money part's SMS reference",
      'payments',
    );
  const { phone: typed, network: wanted, ...sale } = input;
  const phone = phoneOf(typed, 'phone');
  const network = networkOf(wanted);
  const parsed = CreatePaymentRequestInput.safeParse({ sale: { ...sale, id: newId() }, phone, ...(network ? { network } : {}) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid({ ...issue, path: issue.path[0] === 'sale' ? issue.path.slice(1) : issue.path });
  }
  if (!m.actions.online())
    throw new PushUnavailableError('offline', `the till is offline, so it cannot ask the customer's phone: ${SMS_PATH}`);

  const id = parsed.data.sale.id;
  // Kept before asking: if the answer is lost, the till still knows what to ask the server about.
  const held: HeldPayment = {
    id,
    sale,
    phone,
    network: network ?? null,
    asked_at: m.actions.now(),
    state: null,
    amount: null,
    abandoned: false,
  };
  let request: PaymentRequest;
  try {
    request = await m.watch.asked(id, async () => {
      await putHeld(m.actions.db, id, held);
      return paymentCall(m.auth, (api, token, signal) => api.createPaymentRequest(token, parsed.data, signal));
    });
  } catch (err) {
    if (err instanceof NetworkError) {
      await putHeld(m.actions.db, id, { ...held, abandoned: true });
      throw new PushUnavailableError('offline', `the server could not be reached, so the customer's phone was not asked: ${SMS_PATH}`);
    }
    await putHeld(m.actions.db, id, null);
    if (err instanceof DukaApiError && err.status === 409 && err.message.startsWith(NO_ACCOUNT))
      throw new PushUnavailableError('no_collection_account', `${err.message}: ${SMS_PATH}`);
    throw err;
  }
  await m.watch.settle(request);
  return request;
}

async function heldOrFail(m: MobileMoneyCtx, id: string): Promise<HeldPayment> {
  const held = (await heldPayments(m.actions.db))[id];
  if (!held) throw new TillError('NOT_FOUND', `no mobile-money request ${id} is waiting on this till`, 'id');
  return held;
}

/** The request as the server has it now (its sale once paid), recorded on the till. */
export async function paymentRequest(m: MobileMoneyCtx, id: string): Promise<PaymentRequest> {
  const request = await paymentCall(m.auth, (api, token, signal) => api.getPaymentRequest(token, id, signal));
  await m.watch.settle(request);
  return request;
}

/**
 * Cancel a push still awaiting: the stock goes back. When the customer paid first the answer is
 * the paid request (its sale is booked and in the receipts); a push already over answers as it is.
 */
export async function cancelMobilePayment(m: MobileMoneyCtx, id: string): Promise<PaymentRequest> {
  await heldOrFail(m, id);
  let request: PaymentRequest;
  try {
    request = await paymentCall(m.auth, (api, token, signal) => api.cancelPaymentRequest(token, id, signal));
  } catch (err) {
    if (err instanceof NetworkError)
      throw new TillError('NETWORK', 'the server could not be reached to cancel: the customer may still pay; try again when online');
    // Not cancellable any more (paid, failed, expired meanwhile): what it became instead.
    if (err instanceof DukaApiError && err.status === 409) return paymentRequest(m, id);
    throw err;
  }
  await m.watch.settle(request);
  return request;
}

/** Ask again after a failed, expired or cancelled push, optionally of another number or wallet. */
export async function retryMobilePayment(m: MobileMoneyCtx, id: string, input: RetryMobilePaymentInput = {}): Promise<PaymentRequest> {
  const held = await heldOrFail(m, id);
  const phone = input.phone === undefined ? undefined : phoneOf(input.phone, 'phone');
  const network = networkOf(input.network);
  const body = { ...(phone ? { phone } : {}), ...(network ? { network } : {}) };
  const request = await paymentCall(m.auth, (api, token, signal) => api.retryPaymentRequest(token, id, body, signal));
  await putHeld(m.actions.db, id, { ...held, phone: phone ?? held.phone, network: network ?? held.network, abandoned: false });
  await m.watch.settle(request);
  return request;
}

/**
 * The customer pays in cash after all: the push is cancelled on the server, then the same lines are
 * sold for cash under the same id (the server books it as an ordinary sale). A push the server has
 * already called over is sold offline too; one it may still be waiting on is not, until the cancel
 * reaches it.
 */
export async function payCashInstead(m: MobileMoneyCtx, id: string, o: { cash_tendered?: number } = {}): Promise<Receipt> {
  const done = await reads.transactionById(m.actions.db, id);
  if (done && !(await heldPayments(m.actions.db))[id]) {
    if (done.payment_method === 'Cash') return done;
    throw new TillError(
      'CONFLICT',
      `this sale was paid by ${done.payment_method}: receipt ${done.receipt_number ?? done.client_receipt_number}`,
    );
  }
  const held = await heldOrFail(m, id);
  let status = held.state?.status ?? null;
  if (status !== 'cancelled') {
    try {
      status = (await cancelMobilePayment(m, id)).status;
    } catch (err) {
      const over = status !== null && (RETRYABLE_REQUEST as readonly string[]).includes(status);
      if (!(err instanceof TillError && err.code === 'NETWORK' && over))
        throw err instanceof TillError && err.code === 'NETWORK'
          ? new TillError(
              'NETWORK',
              'the mobile-money request could not be cancelled (the server is out of reach), so the customer may still pay it: try again when online rather than taking cash as well',
            )
          : err;
    }
  }
  if (status === 'paid') {
    const sale = await reads.transactionById(m.actions.db, id);
    throw new TillError('CONFLICT', `the customer paid by mobile money meanwhile: receipt ${sale?.receipt_number ?? id}`);
  }
  const { payment_method: _wallet, ...rest } = held.sale;
  // The till held it from its own lines, each a product and a quantity.
  const lines = { ...rest, lines: rest.lines.map((l) => ({ product_id: l.product_id!, qty: l.qty! })) };
  const receipt = await sell(
    m.actions,
    { ...lines, payment_method: 'Cash', ...(o.cash_tendered === undefined ? {} : { cash_tendered: o.cash_tendered }) },
    id,
  );
  await putHeld(m.actions.db, id, null);
  return receipt;
}

/** The pushes this till is following (asked and not yet paid or sold otherwise), oldest first. */
export async function mobilePayments(m: MobileMoneyCtx): Promise<HeldPayment[]> {
  return Object.values(await heldPayments(m.actions.db)).sort((a, b) => a.asked_at - b.asked_at);
}
