/**
 * Where the replica lives: the storage seam. A host hands the till a Kysely dialect over its SQLite
 * (better-sqlite3 in Node, `node/storage.ts`; SQLite WASM in a browser; `:memory:` in a test) and,
 * when the engine wants it, something to run while the till is idle. What is particular to one
 * engine (pragmas, the statement cache, WAL checkpoints) stays inside its storage, never in the till.
 */
import type { Dialect, Kysely } from 'kysely';

export interface TillStorage {
  /** A Kysely dialect over one SQLite database. The till keeps a single connection's worth of work: one transaction at a time. */
  dialect: Dialect;
  /** Run once the till's writes have paused for a moment (better-sqlite3 folds its WAL into the file here). */
  whenIdle?: (db: Kysely<any>) => Promise<void>;
  /** Run once the till has closed its connection (more than once is harmless): what the storage started besides it (a worker) ends here. */
  close?: () => Promise<void>;
  /** A browser's worker stages a bootstrap page itself, off the main thread (issue 53, `replica/stage-page.ts`). */
  stageBootstrapPage?: BootstrapPageStager;
}

/** A bootstrap page's head: what its download needs to go on. */
export interface PageHead {
  page_token: string | null;
  cursor: string;
  total: number;
}
/** A staging table (`replica/stage.ts`): the replica table it is for, its key, its columns. */
export interface StagedTable {
  table: string;
  key: readonly string[];
  columns: readonly string[];
}
/** What a page staged: its head, its rows, the staging tables that hold them. */
export interface StagedPage extends PageHead {
  rows: number;
  tables: StagedTable[];
}
/** Stage a page's bytes (handed over, no longer the caller's); `heard` gets the page's head, and its rows go in once what it answers settles. */
export type BootstrapPageStager = (page: ArrayBuffer, heard: (head: PageHead) => Promise<void> | void) => Promise<StagedPage>;

/** A dialect alone is a storage with nothing to do when idle. */
export const asStorage = (s: Dialect | TillStorage): TillStorage => ('createDriver' in s ? { dialect: s } : s);
