/**
 * What a till tells the app, as typed events. A listener that throws is reported to
 * `onListenerError` and never breaks the sync loop that emitted the event.
 */
import type { MutationResult, MutationType, PaymentRequestState } from '@duka/shared';
import type { TillStatus } from './status.js';
import type { Receipt } from './types.js';

/** Bootstrap progress: rows loaded so far of the snapshot's total. */
export interface BootstrapProgress {
  phase: 'bootstrap';
  done: number;
  total: number;
}

/** A sale the server numbered, for reprinting or showing its store receipt number. */
export interface NumberedReceipt {
  transaction_id: string;
  client_receipt_number: string;
  number: number;
  receipt_number: string;
}

/** One finished sync: what went up, what came down. */
export interface SyncReport {
  /** Mutations the server answered in this sync (applied, duplicate or rejected). */
  pushed: number;
  /** Changes applied from pulls (or rows from a bootstrap). */
  pulled: number;
  /** Sales that got their server number in this sync. */
  numbered: NumberedReceipt[];
  /** Whether this sync bootstrapped the replica (first sync, or after `reset_required`). */
  bootstrapped: boolean;
  /** ISO time the sync finished. */
  at: string;
}

/** A difference the server noted while booking a queued mutation (design §4); the mutation was applied. */
export interface TillConflict {
  /** The till's own id for this note (see `till.dismissConflict`). */
  id: string;
  mutation_id: string;
  seq: number;
  type: MutationType;
  kind: NonNullable<MutationResult['conflicts']>[number]['kind'];
  message: string;
  product_id: string | null;
  /** The server's transaction, for `sale.create`. */
  transaction_id: string | null;
  created_at: string;
}

/** A queued mutation the server refused: kept in the replica (see `till.rejected()`), its local effects undone. */
export interface RejectedMutation {
  mutation_id: string;
  seq: number;
  type: MutationType;
  code: string;
  message: string;
  payload: Record<string, unknown>;
}

/** A mobile-money push this till asked for changed state (the websocket said, or the till asked the server). */
export interface PaymentUpdate extends PaymentRequestState {
  /** Once paid: the booked sale, already in the replica's receipts (`till.transaction(id)`); else null. */
  receipt: Receipt | null;
}

export interface TillEvents {
  progress: [BootstrapProgress];
  synced: [SyncReport];
  conflict: [TillConflict];
  rejected: [RejectedMutation];
  online: [];
  offline: [];
  /**
   * The till's clock went wrong (more than 5 minutes off the server's, `wrong: true`) or right
   * again: its sales are stamped with it, and a wrong one is booked at the server's receipt time.
   */
  clock: [{ offsetMs: number; wrong: boolean }];
  /** The tokens are gone or refused: selling goes on, syncing waits for `login`. */
  'auth-required': [{ reason: string }];
  /**
   * The server expects a seq this till had already seen acknowledged: it went back in time
   * (restored from a backup). The till re-sends what it still holds from that seq.
   */
  'server-restored': [{ expected_seq: number; last_acked_seq: number }];
  /**
   * The server no longer (or not yet) speaks this till's sync protocol: it answered 426
   * `UNSUPPORTED_PROTOCOL`. Syncing stops until a newer till is installed; selling goes on offline
   * and the queue is kept for it.
   */
  'update-required': [UpdateRequired];
  /** Any change of `till.status()`. */
  status: [TillStatus];
  /**
   * A push held queued mutations back: the first needs a newer sync protocol than the server
   * speaks (issue 51). They go as soon as a sync hears the server speak it (`status().heldForServer`).
   */
  held: [HeldForServer];
  /** A push this till asked for (`askMobilePayment`) moved: awaiting, paid (with its receipt), failed, cancelled or expired. */
  payment: [PaymentUpdate];
}

/** Mutations a push held for a newer server: how many, what the server speaks, what the first needs. */
export interface HeldForServer {
  count: number;
  server_protocol: number;
  needed: number;
}

/** Why the till must be updated: the server's message and the protocol versions on each side. */
export interface UpdateRequired {
  message: string;
  /** The version this till speaks. */
  protocol_version: number;
  /** The range the server serves, when it said. */
  server_min_supported: number | null;
  server_protocol_version: number | null;
}

type Listener<A extends unknown[]> = (...args: A) => void;

export class TypedEmitter<E extends { [K in keyof E]: unknown[] }> {
  private readonly listeners = new Map<keyof E, Set<Listener<any>>>();

  constructor(private readonly onListenerError: (err: unknown, event: keyof E) => void = () => {}) {}

  on<K extends keyof E>(event: K, fn: Listener<E[K]>): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
    return this;
  }

  off<K extends keyof E>(event: K, fn: Listener<E[K]>): this {
    this.listeners.get(event)?.delete(fn);
    return this;
  }

  once<K extends keyof E>(event: K, fn: Listener<E[K]>): this {
    const wrapped: Listener<E[K]> = (...args) => {
      this.off(event, wrapped);
      fn(...args);
    };
    return this.on(event, wrapped);
  }

  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) {
      try {
        fn(...args);
      } catch (err) {
        this.onListenerError(err, event);
      }
    }
  }
}
