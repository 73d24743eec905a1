/** The options of `Till.open`: where the till reaches the server and keeps its replica, and how it syncs. */
import type { Dialect } from 'kysely';
import type { TillConnector } from './connector.js';
import type { TillEvents } from './events.js';
import type { FetchLike } from './http/client.js';
import type { TillStorage } from './local/storage.js';
import type { BackoffOptions } from './sync/backoff.js';
import type { NetworkEvents } from './platform.js';

export interface TillOptions {
  /** The API root including its base path, e.g. `http://192.168.1.10:8080/api/v1` (for the default HTTP connector). */
  baseUrl?: string;
  /** How the till reaches the server (default: the HTTP connector on `baseUrl`, with `fetch` and `requestTimeoutMs`). */
  connector?: TillConnector;
  /** The replica's SQLite file, where the platform keeps files (Node: better-sqlite3; created if missing; `:memory:` for a throwaway till). */
  dbPath?: string;
  /** Where the replica lives instead of `dbPath`: a Kysely dialect over SQLite, or a `TillStorage` with its idle work. */
  storage?: Dialect | TillStorage;
  /** How the device is named on the server (e.g. `Counter 1`). */
  deviceName: string;
  /** Sync on a timer, on websocket pokes and when the network returns (default true). */
  autoSync?: boolean;
  /** Time between automatic syncs (default 30 000 ms). */
  syncIntervalMs?: number;
  /** Retry delays after a failed sync (default 1 s doubling to 30 s, with jitter, never giving up). */
  backoff?: BackoffOptions;
  /** While the server is out of reach, probe it this often and sync as soon as it answers (default 2 000 ms; `autoSync` only). */
  probeIntervalMs?: number;
  /**
   * Where the network's `online`/`offline` events come from (`autoSync` only): default the
   * platform's (a browser's window or worker; none in Node); `null` for none. `offline` makes the
   * till offline at once; `online` probes the server at once.
   */
  network?: NetworkEvents | null;
  /** Listen on the server's websocket for pokes when `autoSync` (default true). */
  realtime?: boolean;
  /** While the websocket is down, ask about a mobile-money push still awaiting this often (default 3 000 ms; `autoSync` only). */
  paymentPollMs?: number;
  /** Per-request timeout of the HTTP connector (default 15 000 ms). */
  requestTimeoutMs?: number;
  /** Refresh the access token this long before it expires (default 60 000 ms). */
  refreshMarginMs?: number;
  /** Page sizes: push ≤ 100 mutations (server max 500), pull 500 changes, bootstrap 5000 rows (the server's most: each page is a round trip and a staging commit). */
  pushBatchSize?: number;
  pullPageSize?: number;
  bootstrapPageSize?: number;
  /** For tests and embedding: the fetch of the HTTP connector, the clock (epoch ms), the jitter source. */
  fetch?: FetchLike;
  now?: () => number;
  random?: () => number;
  /** A listener threw (default: ignored). */
  onListenerError?: (err: unknown, event: keyof TillEvents) => void;
}
