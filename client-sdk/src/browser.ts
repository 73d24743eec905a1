/**
 * The package in a browser (the `browser` condition): the core, plus a `Till` that dials the
 * server's websocket with the native `WebSocket` and keeps its replica in the `storage` the page
 * gives it (a browser has no files for `dbPath`), and the replica on OPFS with one tab per till
 * (`openBrowserTill`). See README, "In a browser".
 */
export * from './index.js';
export { Till, type BrowserTillOptions } from './browser/till.js';
export { opfsStorage, type OpfsStorage, type OpfsStorageOptions, type WorkerLike } from './browser/storage.js';
export { claimTill, type TillClaim } from './browser/claim.js';
export { openBrowserTill, type OpenBrowserTillOptions } from './browser/open.js';
