/**
 * The connector seam (PowerSync's backend connector, for a till): everything the till asks of the
 * server, and nothing else. The HTTP connector (`http/connector.ts`) is the default; a host with
 * another way to reach the server (a browser's fetch behind a proxy, a test double, a recording
 * wrapper) passes its own to `Till.open({ connector })`.
 *
 * The till owns the rules around these calls (when to refresh a token, retry, back off, give up);
 * a connector only carries them. Its contract:
 * - an answer from the server that is not a success is thrown as a `DukaApiError` (its `status`
 *   and `code` decide what the till does: 401 refreshes, 426 asks for an update, 5xx retries);
 * - no answer at all is thrown as a `NetworkError`;
 * - `signal` is aborted when the till closes: stop at once.
 */
import type {
  AddoMedicine,
  BootstrapResponse,
  CreatePaymentRequestInput,
  Device,
  LoginInput,
  LoginResult,
  MobileNetwork,
  PaymentRequest,
  PullResponse,
  PushRequest,
  PushResponse,
  RegisterDeviceInput,
  TokenPair,
} from '@duka/shared';

/** A page of the ADDO-permitted list and the list's version when the page was read. */
export interface AddoListPage {
  items: AddoMedicine[];
  version: number;
  total_pages: number;
}

/** The server's `Device`: the till's code and the server's last applied seq. */
export type RegisteredDevice = Device;

export interface TillConnector {
  /** Password sign-in. */
  login(input: LoginInput, signal: AbortSignal): Promise<LoginResult>;
  /** Text a one-time sign-in code. */
  requestOtp(phone: string, signal: AbortSignal): Promise<void>;
  /** Sign in with the texted code. */
  verifyOtp(phone: string, code: string, signal: AbortSignal): Promise<TokenPair>;
  /** Exchange a refresh token for a new pair (the server rotates refresh tokens). */
  refresh(refreshToken: string, signal: AbortSignal): Promise<TokenPair>;
  /**
   * Set the signed-in user's new password (`PATCH /accounts/me` with `password`), as a session
   * signed in with a temporary password must before anything else. Optional: without it the till
   * asks the cashier to set it in the back office.
   */
  setPassword?(accessToken: string, password: string, signal: AbortSignal): Promise<void>;
  /** End the sign-in on the server. */
  logout(accessToken: string, refreshToken: string | undefined, signal: AbortSignal): Promise<void>;
  /** Register this device (idempotent): its till code and the server's last applied seq. */
  registerDevice(accessToken: string, device: RegisterDeviceInput, signal: AbortSignal): Promise<RegisteredDevice>;
  /** Push a batch of the queue; the connector states the sync protocol version. */
  push(accessToken: string, batch: PushRequest, signal: AbortSignal): Promise<PushResponse>;
  /** A page of changes after `cursor`. */
  pull(accessToken: string, query: { cursor?: string; limit?: number }, signal: AbortSignal): Promise<PullResponse>;
  /** A page of the snapshot. */
  bootstrap(accessToken: string, query: { page_token?: string; limit?: number }, signal: AbortSignal): Promise<BootstrapResponse>;
  /** A page (from 1) of the platform's ADDO-permitted list, which an ADDO till keeps a copy of. */
  addoList(accessToken: string, query: { page: number; page_size: number }, signal: AbortSignal): Promise<AddoListPage>;
  /**
   * The cheapest answer the server gives, to learn it is reachable again (no token: a till that
   * lost its sign-in still finds the network). Optional: a till whose connector has none notices
   * the network back by its sync retries alone.
   */
  ping?(signal: AbortSignal): Promise<void>;
  /** The websocket to listen on for pokes, or null when this connector has none (the till then syncs on its timer). */
  realtimeUrl(accessToken: string): string | null;

  /**
   * Mobile money at the till (issue 38), optional: a connector without them cannot ask a customer's
   * phone for a payment, and the till offers the SMS path only. `POST /payments/requests` (the same
   * sale id answers the first request again), `GET /payments/requests/{id}`, `…/cancel`, `…/retry`.
   */
  createPaymentRequest?(accessToken: string, input: CreatePaymentRequestInput, signal: AbortSignal): Promise<PaymentRequest>;
  getPaymentRequest?(accessToken: string, id: string, signal: AbortSignal): Promise<PaymentRequest>;
  cancelPaymentRequest?(accessToken: string, id: string, signal: AbortSignal): Promise<PaymentRequest>;
  retryPaymentRequest?(
    accessToken: string,
    id: string,
    input: { phone?: string; network?: MobileNetwork },
    signal: AbortSignal,
  ): Promise<PaymentRequest>;
}
