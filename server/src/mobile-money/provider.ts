/**
 * A mobile-money provider (AzamPay, Selcom) as a driver: start a push payment (the payer confirms
 * on their phone), read the provider's callback, and ask a payment's status when the callback
 * never came. Two areas drive the same drivers as peers: billing, for the shop's subscription
 * payments into Duka's platform account (its `ctx.subscriptionPayments`), and payments, for the collection
 * payments into the shop's own accounts (payments/accounts/collection-driver.ts). The caller owns
 * the records, idempotency and retries; a driver keeps no state between calls but an access token,
 * and builds each provider's documented request exactly.
 */
import type { MobileNetwork } from '@duka/shared';

export interface PushPaymentRequest {
  /** Our payment id: the provider's external/reference id, so callbacks and queries match it. */
  reference: string;
  /** Whole Tanzanian shillings (providers take TZS without minor units). */
  amountTzs: number;
  /** International digits without '+': 255XXXXXXXXX. */
  phone: string;
  network: MobileNetwork;
  description: string;
}

export interface PushStarted {
  /** The provider's transaction id when its answer carries one. */
  providerRef: string | null;
}

export type PaymentOutcome = 'paid' | 'failed' | 'pending';

export interface PaymentResult {
  reference: string;
  providerRef: string | null;
  outcome: PaymentOutcome;
  /** Whole shillings the provider says were paid (null when it does not say). */
  amountTzs: number | null;
  /** The provider's words for a failure or a pending state. */
  detail: string;
  /** Who paid (international digits, as the provider writes them), when a callback says. */
  payer?: string | null;
  /** The wallet in the provider's own words ('Mpesa', 'AIRTELMONEY'), when a callback says. */
  network?: string | null;
  /** The mobile network's own transaction id, the one in the payer's SMS, when a callback carries it. */
  walletRef?: string | null;
}

export class PaymentRejected extends Error {
  constructor(
    readonly reason: string,
    /** True when trying again cannot help (bad credentials, unsupported network, invalid phone). */
    readonly permanent: boolean,
  ) {
    super(reason);
    this.name = 'PaymentRejected';
  }
}

/** A callback as the HTTP route received it. */
export interface PaymentCallbackInput {
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  body: string;
  contentType: string | undefined;
}

export interface PaymentProvider {
  readonly name: string;
  /** Throws `PaymentRejected` when the provider refuses; network errors and timeouts are transient. */
  startPush(request: PushPaymentRequest, signal?: AbortSignal): Promise<PushStarted>;
  /**
   * The result a callback reports. Throws `CallbackRejected` when the callback fails the
   * provider's authentication (signature, secret or source), so the route answers 401.
   */
  parseCallback(input: PaymentCallbackInput): PaymentResult;
  /** The provider's answer to "what happened to this payment?" */
  queryStatus(reference: string, providerRef: string | null, signal?: AbortSignal): Promise<PaymentResult>;
}

export class CallbackRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CallbackRejected';
  }
}
