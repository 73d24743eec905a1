/**
 * The connector seam (PowerSync's backend connector, for a till): the transport, kept as narrow as
 * PowerSync's (fetch credentials, upload data). It carries the sync protocol (push, pull,
 * bootstrap), the token refresh the till runs on its own, the websocket's address, the
 * reachability probe, and one generic `send` that every other endpoint goes through: those are
 * worded once, typed, in `TillApi` (api.ts), so a new endpoint adds a method there and never widens
 * this interface. The HTTP connector (`http/connector.ts`) is the default; a host with another way
 * to reach the server (a browser's fetch behind a proxy, a test double, a recording wrapper) passes
 * its own to `Till.open({ connector })`.
 *
 * The till owns the rules around these calls (when to refresh a token, retry, back off, give up);
 * a connector only carries them. Its contract:
 * - an answer from the server that is not a success is thrown as a `DukaApiError` (its `status`
 *   and `code` decide what the till does: 401 refreshes, 426 asks for an update, 5xx retries);
 * - no answer at all is thrown as a `NetworkError`;
 * - `signal` is aborted when the till closes: stop at once.
 */
import type { BootstrapResponse, Device, PullResponse, PushRequest, PushResponse, TokenPair } from '@duka/shared';

/** The server's `Device`: the till's code and the server's last applied seq. */
export type RegisteredDevice = Device;

/** One request to the REST API besides the sync protocol's, as `TillApi` words it. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Below the API root, e.g. `/payments/requests/0190…/cancel` (path parameters already encoded). */
  path: string;
  /** The access token; absent for the calls made before sign-in. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
}

/** A success envelope: its `data`, and its `meta` (a paged list's page and what rides with it). */
export interface ApiAnswer<T, M = unknown> {
  data: T;
  meta: M;
}

/**
 * What a till asks of the snapshot: the page after `page_token`, at most `limit` rows, and its
 * store's levels only inside the product rows (`levels: 'products'`, what the till asks: no `stock`
 * rows then; a connector that drops it gets them, which the till takes as well).
 */
export type BootstrapAsk = {
  page_token?: string;
  limit?: number;
  levels?: 'rows' | 'products';
};

export interface TillConnector {
  /** Exchange a refresh token for a new pair (the server rotates refresh tokens). */
  refresh(refreshToken: string, signal: AbortSignal): Promise<TokenPair>;
  /** Push a batch of the queue; the connector states the sync protocol version. */
  push(accessToken: string, batch: PushRequest, signal: AbortSignal): Promise<PushResponse>;
  /** A page of changes after `cursor`. */
  pull(accessToken: string, query: { cursor?: string; limit?: number; device_id?: string }, signal: AbortSignal): Promise<PullResponse>;
  /** A page of the snapshot. */
  bootstrap(accessToken: string, query: BootstrapAsk, signal: AbortSignal): Promise<BootstrapResponse>;
  /**
   * The same page undecoded: the answer's bytes (its success envelope), for a storage that decodes
   * and stages pages itself (a browser's worker). Optional: without it the till decodes each page.
   * `next` hears the next page's token when the answer says it beside its body (NEXT_PAGE_HEADER):
   * the till then asks for that page before this one is decoded.
   */
  bootstrapBytes?(accessToken: string, query: BootstrapAsk, signal: AbortSignal, next?: (pageToken: string) => void): Promise<ArrayBuffer>;
  /** The websocket to listen on for pokes, or null when this connector has none (the till then syncs on its timer). */
  realtimeUrl(accessToken: string): string | null;
  /**
   * The cheapest answer the server gives, to learn it is reachable again (no token: a till that
   * lost its sign-in still finds the network). Optional: a till whose connector has none notices
   * the network back by its sync retries alone.
   */
  ping?(signal: AbortSignal): Promise<void>;
  /**
   * The sync protocol version the server named on its last push, pull or bootstrap answer (1 for an
   * answer without the header). Optional: without it, the till takes the server to speak its own version.
   */
  serverProtocol?(): number | undefined;
  /** Any other endpoint (sign-in, device registration, the ADDO list, mobile money): `TillApi` says which and with what. */
  send<T, M = unknown>(request: ApiRequest, signal: AbortSignal): Promise<ApiAnswer<T, M>>;
}
