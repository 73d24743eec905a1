/**
 * The package in a browser (the `browser` condition): the core, plus a `Till` that dials the
 * server's websocket with the native `WebSocket` and keeps its replica in the `storage` the page
 * gives it (a browser has no files for `dbPath`).
 */
import type { Dialect } from 'kysely';
import type { TillOptions } from './lifecycle.js';
import type { TillStorage } from './local/storage.js';
import type { TillPlatform } from './platform.js';
import { nativeSocket } from './sync/native-socket.js';
import { Till as CoreTill } from './till.js';

export * from './index.js';

export type BrowserTillOptions = Omit<TillOptions, 'dbPath' | 'storage'> & { storage: Dialect | TillStorage };

const browser: TillPlatform = { socket: nativeSocket };

/** The till in a browser: see `till.ts` for its API. */
export class Till extends CoreTill {
  /** Open the till's replica on `storage`, migrating it as needed, and with `autoSync` start syncing. */
  static open(opts: BrowserTillOptions): Promise<Till> {
    return this.openOn(browser, opts);
  }
}
