/** @duka/client-sdk for a browser: the SDK, plus the replica on OPFS and one tab per till. See README, "In a browser". */
export * from './index.js';
export { opfsStorage, type OpfsStorage, type OpfsStorageOptions, type WorkerLike } from './browser/storage.js';
export { claimTill, type TillClaim } from './browser/claim.js';
export { openBrowserTill, type BrowserTillOptions } from './browser/open.js';
