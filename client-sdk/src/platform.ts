/**
 * The platform seam: what the till needs from its host that differs between Node and a browser.
 * Each entry (`node.ts`, `browser.ts`) hands the core one `TillPlatform`; nothing else in the core
 * knows where it runs. The replica's SQLite comes through `storage.ts`, the websocket through
 * `TillSocket`, a socket reduced to the few events the realtime link (`sync/realtime.ts`) reads.
 */
import type { TillStorage } from './local/storage.js';

/** Where the platform reports the network going and coming (a browser window or worker: `globalThis`). */
export interface NetworkEvents {
  addEventListener(type: 'online' | 'offline', fn: () => void): void;
  removeEventListener(type: 'online' | 'offline', fn: () => void): void;
}

/** What a socket reports. Each is called at most once, except `message` and `ping`. */
export interface SocketEvents {
  open(): void;
  /** A text frame from the server. */
  message(text: string): void;
  /** The server pinged (only on a socket that `seesPings`). */
  ping(): void;
  /** The server refused the upgrade with this HTTP status (only on a socket that `seesRefusals`); no `close` follows. */
  refused(status: number): void;
  /** The connection ended or never came up, with the websocket close code (1006: dropped). */
  close(code: number): void;
}

export interface TillSocket {
  /** Pings reach `ping`: the link can tell a silent server from a quiet one. A browser's WebSocket answers pings unseen. */
  readonly seesPings: boolean;
  /** A refused upgrade reaches `refused` with its status; otherwise it looks like any failed dial (a browser's `close` 1006). */
  readonly seesRefusals: boolean;
  /** Drop the connection now. */
  close(): void;
}

/** Dial `url`; the events arrive later, never during the call. */
export type DialSocket = (url: string, on: SocketEvents) => TillSocket;

export interface TillPlatform {
  /** The replica in a file at `path` (the `dbPath` option); absent where the till keeps no files. */
  openFile?: (path: string) => TillStorage;
  socket: DialSocket;
  /** The network's `online`/`offline` events (a browser's `globalThis`); absent where there are none (Node). */
  network?: NetworkEvents;
}
