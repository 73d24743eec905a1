/** The till in a browser: the websocket is the native `WebSocket`, and the replica is the `storage` the page gives it. */
import type { Dialect } from 'kysely';
import type { TillOptions } from '../lifecycle.js';
import type { TillStorage } from '../local/storage.js';
import type { TillPlatform } from '../platform.js';
import type { NetworkEvents } from '../platform.js';
import { nativeSocket } from '../sync/native-socket.js';
import { Till as CoreTill } from '../till.js';

export type BrowserTillOptions = Omit<TillOptions, 'dbPath' | 'storage'> & { storage: Dialect | TillStorage };

// A window or a worker fires `online` and `offline` on its global.
const events = globalThis as Partial<NetworkEvents>;
const browser: TillPlatform = {
  socket: nativeSocket,
  network: typeof events.addEventListener === 'function' ? (events as NetworkEvents) : undefined,
};

/** See `till.ts` for its API. */
export class Till extends CoreTill {
  /** Open the till's replica on `storage`, migrating it as needed, and with `autoSync` start syncing. */
  static open(opts: BrowserTillOptions): Promise<Till> {
    return this.openOn(browser, opts);
  }
}
