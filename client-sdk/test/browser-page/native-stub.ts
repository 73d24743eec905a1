/**
 * Stands in for better-sqlite3 in the test page's bundle: the SDK's index still imports the Node
 * storage, which a browser till never calls (it always hands in `storage`).
 */
export default class NoNativeSqlite {
  constructor() {
    throw new Error('better-sqlite3 does not run in a browser');
  }
}
