/** What the soak run and its till-pool processes (pool-worker.ts) say to each other over IPC. */
import type { TillReport } from '../chaos/protocol.js';

export interface PoolTill {
  /** `shop 3 till 2`. */
  name: string;
  dbPath: string;
  deviceName: string;
  identifier: string;
  password: string;
  seed: number;
  productIds: string[];
}

export interface Rhythm {
  /** Mean pause between a till's sales, ms (each pause is drawn from half to one and a half times it). */
  paceMs: number;
  /** Mean time between a till's outages, ms; each lasts `outageMs` (drawn from half to one and a half times it). */
  outageEveryMs: number;
  outageMs: number;
}

/** Since the previous sample: what happened, with absolute times (Date.now()) for each latency. */
export interface PoolSample {
  sales: number;
  /** `till.sell()`: what the cashier waits for (the replica's durable commit). */
  saleMs: Array<[at: number, ms: number]>;
  /** A `POST /sync/push` answered 2xx, from request to answer. */
  pushMs: Array<[at: number, ms: number]>;
  tills: Array<{ name: string; pending: number; acked: number; online: boolean; live: boolean }>;
}

export type ToPool =
  | { type: 'start'; serverPort: number; tills: PoolTill[] }
  | { type: 'go'; durationMs: number; rhythm: Rhythm }
  | { type: 'sample' }
  | { type: 'drain'; timeoutMs: number }
  | { type: 'report' };

export type FromPool =
  | { type: 'ready' }
  | { type: 'sample'; sample: PoolSample }
  | { type: 'sold' }
  | { type: 'drained' }
  | { type: 'reports'; reports: Array<TillReport & { name: string }> }
  | { type: 'failed'; error: string };
