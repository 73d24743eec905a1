/**
 * AzamPay mobile-network (MNO) checkout: the payer confirms a push on their phone (Airtel Money,
 * Tigo Pesa, HaloPesa, M-Pesa, AzamPesa) and AzamPay posts the result to our callback.
 *
 * Wire format, from AzamPay's API reference (developerdocs.azampay.co.tz/redoc) as its SDKs use it
 * (the Node `azampay` SDK, the Dart `azampay` package, `alphaolomi/laravel-azampay`):
 * - token: `POST {auth}/AppRegistration/GenerateToken` with JSON `appName`, `clientId`,
 *   `clientSecret`; answers `{ data: { accessToken, expire }, message, success, statusCode }`, and
 *   423 when the details are not valid for the app or the secret has expired;
 * - push: `POST {checkout}/azampay/mno/checkout` with `Authorization: Bearer`, `X-API-Key` and JSON
 *   `accountNumber` (the payer, 255…), `amount` (a string of whole shillings), `currency: "TZS"`,
 *   `externalId` (our payment id), `provider` and `additionalProperties`; answers
 *   `{ success, transactionId, message }`;
 * - callback: JSON `msisdn`, `amount`, `message`, `utilityref` (our externalId), `operator`,
 *   `reference` (AzamPay's), `transactionstatus` (`success` or `failure`), `submerchantAcc`,
 *   `fspReferenceId` (the mobile network's own transaction id, the one in the payer's SMS),
 *   `additionalProperties`.
 * AzamPay signs no callback, so the callback URL carries a secret (`?token=`) that is compared in
 * constant time; and its public checkout API gives no status query for an MNO push that we could
 * confirm, so `queryStatus` answers `pending` and a payment whose callback was lost waits for the
 * operator (it is listed in the platform admin's billing history).
 */
import { timingSafeEqual } from 'node:crypto';
import type { MobileNetwork } from '@duka/shared';
import {
  CallbackRejected,
  type PaymentCallbackInput,
  type PaymentProvider,
  PaymentRejected,
  type PaymentResult,
  type PushPaymentRequest,
  type PushStarted,
} from './provider.js';
import { callProvider, isTransient, providerMessage } from './http.js';

export const AZAMPAY_LIVE = { authBaseUrl: 'https://authenticator.azampay.co.tz', checkoutBaseUrl: 'https://checkout.azampay.co.tz' };
export const AZAMPAY_SANDBOX = {
  authBaseUrl: 'https://authenticator-sandbox.azampay.co.tz',
  checkoutBaseUrl: 'https://sandbox.azampay.co.tz',
};

export interface AzamPayConfig {
  appName: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  authBaseUrl: string;
  checkoutBaseUrl: string;
  /** The secret our callback URL carries as `?token=`. */
  callbackToken: string;
  timeoutMs: number;
}

/** AzamPay's names for the networks. */
const PROVIDER: Record<MobileNetwork, string> = {
  mpesa: 'Mpesa',
  airtel: 'Airtel',
  tigo: 'Tigo',
  halopesa: 'Halopesa',
  azampesa: 'Azampesa',
};

/** A token is renewed this long before AzamPay says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export function azamPayProvider(cfg: AzamPayConfig): PaymentProvider {
  let token: { value: string; expiresAt: number } | null = null;

  const call = (url: string, init: RequestInit, signal?: AbortSignal) => callProvider('AzamPay', url, init, cfg.timeoutMs, signal);
  const words = providerMessage;
  const transient = isTransient;

  async function accessToken(signal?: AbortSignal): Promise<string> {
    if (token && token.expiresAt - TOKEN_MARGIN_MS > Date.now()) return token.value;
    const { status, body } = await call(
      `${cfg.authBaseUrl}/AppRegistration/GenerateToken`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ appName: cfg.appName, clientId: cfg.clientId, clientSecret: cfg.clientSecret }),
      },
      signal,
    );
    const data = body.data as { accessToken?: unknown; expire?: unknown } | undefined;
    if (status !== 200 || typeof data?.accessToken !== 'string') {
      throw new PaymentRejected(`AzamPay refused the app credentials: ${words(body, `HTTP ${status}`)}`, !transient(status));
    }
    const expires = typeof data.expire === 'string' ? Date.parse(data.expire) : NaN;
    token = { value: data.accessToken, expiresAt: Number.isFinite(expires) ? expires : Date.now() + 10 * 60_000 };
    return token.value;
  }

  async function checkout(request: PushPaymentRequest, signal?: AbortSignal) {
    const bearer = await accessToken(signal);
    return call(
      `${cfg.checkoutBaseUrl}/azampay/mno/checkout`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${bearer}`,
          'x-api-key': cfg.apiKey,
        },
        body: JSON.stringify({
          accountNumber: request.phone,
          amount: String(request.amountTzs),
          currency: 'TZS',
          externalId: request.reference,
          provider: PROVIDER[request.network],
          additionalProperties: { description: request.description },
        }),
      },
      signal,
    );
  }

  return {
    name: 'azampay',

    async startPush(request, signal): Promise<PushStarted> {
      let answer = await checkout(request, signal);
      if (answer.status === 401) {
        // The token may have been revoked before its time: one new token, one more try.
        token = null;
        answer = await checkout(request, signal);
      }
      const { status, body } = answer;
      if (status === 200 && body.success === true)
        return { providerRef: typeof body.transactionId === 'string' ? body.transactionId : null };
      throw new PaymentRejected(`AzamPay: ${words(body, `HTTP ${status}`)}`, !transient(status));
    },

    parseCallback(input: PaymentCallbackInput): PaymentResult {
      const given = Buffer.from(input.query.token ?? '');
      const expected = Buffer.from(cfg.callbackToken);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CallbackRejected('the callback token is wrong');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(input.body) as Record<string, unknown>;
      } catch {
        throw new CallbackRejected('the body is not JSON');
      }
      const status = String(body.transactionstatus ?? '').toLowerCase();
      if (typeof body.utilityref !== 'string' || !['success', 'failure', 'failed'].includes(status))
        throw new CallbackRejected('the body is not an AzamPay callback');
      return {
        reference: body.utilityref,
        providerRef: typeof body.reference === 'string' ? body.reference : null,
        outcome: status === 'success' ? 'paid' : 'failed',
        // Absent is null (the amount asked); anything else that is not a number stays NaN and is refused.
        amountTzs: body.amount == null || body.amount === '' ? null : Number(body.amount),
        detail: typeof body.message === 'string' ? body.message : status,
        payer: typeof body.msisdn === 'string' ? body.msisdn : null,
        network: typeof body.operator === 'string' ? body.operator : null,
        walletRef: typeof body.fspReferenceId === 'string' && body.fspReferenceId ? body.fspReferenceId : null,
      };
    },

    async queryStatus(reference, providerRef) {
      return {
        reference,
        providerRef,
        outcome: 'pending',
        amountTzs: null,
        detail: 'AzamPay gives no status query for a mobile push: waiting for its callback',
      };
    },
  };
}
