/**
 * The package in Node (the `node` and `default` conditions): the core, plus a `Till` whose replica
 * is a better-sqlite3 file (`dbPath`) and whose websocket is dialled with `ws`. Both are optional
 * peer dependencies of the package, needed here only.
 */
import type { TillOptions } from './lifecycle.js';
import { sqliteFile } from './node/storage.js';
import { wsSocket } from './node/socket.js';
import type { TillPlatform } from './platform.js';
import { Till as CoreTill } from './till.js';

export * from './index.js';
export { sqliteFile };

const node: TillPlatform = { openFile: sqliteFile, socket: wsSocket };

/** The till in Node: see `till.ts` for its API. */
export class Till extends CoreTill {
  /** Open the till's replica (`dbPath`, or a `storage`), creating and migrating it as needed, and with `autoSync` start syncing. */
  static open(opts: TillOptions): Promise<Till> {
    return this.openOn(node, opts);
  }
}
