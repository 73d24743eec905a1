/**
 * Push at checkout (issue 38): the till asks the server to request a sale's payment from the
 * customer's phone; the sale is held (`awaiting_payment`, its stock reserved, no receipt number)
 * until the provider says paid, failed, or the cashier cancels. The request's id is the sale's
 * client id, so the paid sale carries it, and a second request with the same id answers the first.
 */
import { z } from 'zod';
import { Timestamp } from '../common.js';
import { MobileNetwork } from '../integrations.js';
import { MobileMoneyMethod } from '../payment-methods.js';
import { CreateSaleBody, Transaction } from '../pos/pos.schemas.js';
import { TzMobileNumber } from '../msisdn.js';

export const PaymentRequestStatus = z.enum(['awaiting_payment', 'paid', 'failed', 'cancelled', 'expired']).meta({
  id: 'PaymentRequestStatus',
  description:
    'awaiting_payment: asked, the stock held; paid: the sale is booked; failed (the customer declined, the wallet refused), cancelled (by the cashier) and expired (no answer in time): the stock is back and nothing was sold',
});
export type PaymentRequestStatus = z.infer<typeof PaymentRequestStatus>;

/** The states a request can leave again: a failed or expired push can be retried. */
export const RETRYABLE_REQUEST: readonly PaymentRequestStatus[] = ['failed', 'expired', 'cancelled'];

export const CreatePaymentRequestInput = z
  .object({
    // One wallet pays the whole sale: a push asks the customer's phone for the total.
    sale: CreateSaleBody.omit({ payments: true }).extend({
      id: z.uuid().meta({ description: "The till's id for the sale: the sale's id once paid, and this request's id" }),
      payment_method: MobileMoneyMethod,
    }),
    phone: TzMobileNumber.meta({ description: "The customer's wallet number (0712…, +255712…, 255712…)" }),
    network: MobileNetwork.optional().meta({
      description:
        "The customer's wallet when it differs from the number's operator (numbers are portable); by default from the payment method",
    }),
  })
  .strict()
  .meta({ id: 'CreatePaymentRequestInput' });
export type CreatePaymentRequestInput = z.infer<typeof CreatePaymentRequestInput>;

/** The wallet a push goes to when the till names none: the one behind the sale's payment method. */
export const NETWORK_OF_METHOD: Readonly<Record<MobileMoneyMethod, MobileNetwork>> = {
  'M-Pesa': 'mpesa',
  'Tigo Pesa': 'tigo',
  'Airtel Money': 'airtel',
};

/** A new push for a failed, expired or cancelled request, to the same phone and wallet unless given. */
export const RetryPaymentRequestInput = z
  .object({
    phone: TzMobileNumber.optional().meta({ description: 'Another wallet number for the customer (0712…, +255712…, 255712…)' }),
    network: MobileNetwork.optional().meta({ description: 'Another wallet for the number (numbers are portable)' }),
  })
  .strict()
  .meta({ id: 'RetryPaymentRequestInput' });
export type RetryPaymentRequestInput = z.infer<typeof RetryPaymentRequestInput>;

/** What the websocket's `payment` message carries: enough to redraw the till's waiting screen. */
export const PaymentRequestState = z
  .object({
    id: z.uuid(),
    status: PaymentRequestStatus,
    detail: z.string().nullable().meta({ description: "The provider's or the server's words for the state, for the cashier" }),
    attempt: z.int(),
    sale_id: z.uuid().nullable().meta({ description: 'The booked sale, once paid' }),
  })
  .meta({ id: 'PaymentRequestState' });
export type PaymentRequestState = z.infer<typeof PaymentRequestState>;

export const PaymentRequest = PaymentRequestState.extend({
  method: MobileMoneyMethod,
  network: MobileNetwork,
  phone: z.string().meta({ example: '+255712345678' }),
  amount: z.number().meta({ description: 'Shillings asked for: the sale total' }),
  can_query: z.boolean().meta({
    description:
      "The provider answers status queries, so a lost callback is recovered by asking it (Selcom); false for AzamPay's mobile checkout, where a missing answer waits for the callback or the cashier",
  }),
  sale: Transaction.nullable().meta({ description: 'The booked sale, once paid' }),
  expires_at: Timestamp.meta({ description: 'Still unanswered then, the request expires and the stock is released' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).meta({ id: 'PaymentRequest' });
export type PaymentRequest = z.infer<typeof PaymentRequest>;
