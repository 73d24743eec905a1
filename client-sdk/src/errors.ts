/**
 * Errors the till raises itself, without asking the server: a sale that cannot be made from the
 * replica, an action that needs a sign-in, the network being down. Their `code` is the shared
 * catalogue's where one fits, so an app handles a local refusal and a server one alike.
 */
import type { ErrorCode } from '@duka/shared';

export type TillErrorCode =
  | ErrorCode
  /** No usable tokens: call `login` (selling still works; syncing waits). */
  | 'AUTH_REQUIRED'
  /** The till has no catalogue or till code yet: log in once while online. */
  | 'NOT_READY'
  /** The server could not be reached. */
  | 'NETWORK'
  /** The till was closed. */
  | 'CLOSED'
  /** A wait (`whenSynced`) ran out of its time. */
  | 'TIMEOUT'
  /** This browser cannot keep the replica (no OPFS, e.g. a private window): the till will not run on memory alone. */
  | 'STORAGE_UNAVAILABLE'
  /** The till's replica is open in another tab or window of this browser: one tab owns a till. */
  | 'OPEN_ELSEWHERE'
  /**
   * A mobile-money push cannot be asked now (the till is offline, or the store has no collection
   * account): take the payment by the SMS path instead, a sale with `payment_phone` and the SMS's
   * `payment_reference`, recorded as unverified.
   */
  | 'PUSH_UNAVAILABLE'
  /**
   * The sale uses what the till's server does not take yet (issue 51: a decimal quantity, a pack, a
   * scale label, split payments need sync protocol 2): update the server, sync, and sell again.
   */
  | 'UPDATE_SERVER';

export class TillError extends Error {
  constructor(
    /** What went wrong, from the shared catalogue or the till's own codes above. */
    readonly code: TillErrorCode,
    message: string,
    /** Dot path of the input at fault (`lines.0.product_id`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'TillError';
  }
}

/** The server could not be reached (refused, reset, timed out): always worth retrying. */
export class NetworkError extends TillError {
  constructor(message: string, cause?: unknown) {
    super('NETWORK', message);
    this.name = 'NetworkError';
    this.cause = cause;
  }
}
