/**
 * The browser's storage: the replica in SQLite WASM on OPFS, inside a worker (`sqlite-worker.ts`),
 * reached through the worker protocol. There is no fallback to memory: a till that cannot keep its
 * sales across a reload refuses to start (`STORAGE_UNAVAILABLE`) rather than lose them.
 */
import { TillError } from '../errors.js';
import type { TillStorage } from '../local/storage.js';
import { WorkerSqliteDialect } from './dialect.js';
import { WorkerLink, WorkerSqliteError } from './link.js';
import type { PortLike } from './protocol.js';

/** A `Worker` as the storage uses it. */
export interface WorkerLike extends PortLike {
  terminate(): void;
}

export interface OpfsStorageOptions {
  /**
   * Starts the SQLite worker. With Vite: `import SqliteWorker from '@duka/client-sdk/sqlite-worker?worker'`
   * and `worker: () => new SqliteWorker()` (see the README, "In a browser").
   */
  worker: () => WorkerLike;
  /** The database's name in the origin's private file system. Default `till.db`. */
  name?: string;
  /** Called once the database is closed and its worker ended (by the till's `close()`). */
  onClose?: () => void;
}

export interface OpfsStorage extends TillStorage {
  /**
   * Whether the browser promised not to evict the origin's storage (`navigator.storage.persist()`);
   * false: best effort only. Resolves once the browser has decided, which in Firefox means once the
   * user has answered its question, so the till does not wait for it.
   */
  persisted: Promise<boolean>;
  /** Close the database and end its worker, when no till has it (the till's `close()` does this itself). */
  close(): Promise<void>;
}

const cannotKeep = (why: string) =>
  new TillError(
    'STORAGE_UNAVAILABLE',
    `this browser cannot keep the till's data: ${why}. Open the till in a current Chrome, Edge, Firefox or Safari, outside a private window.`,
  );

export const openElsewhere = () =>
  new TillError(
    'OPEN_ELSEWHERE',
    'the till is already open in another tab or window of this browser: use that one, or close it and reload this page.',
  );

export async function opfsStorage(o: OpfsStorageOptions): Promise<OpfsStorage> {
  let worker: WorkerLike;
  try {
    worker = o.worker();
  } catch (e) {
    throw cannotKeep(`it cannot start the database worker (${e instanceof Error ? e.message : String(e)})`);
  }
  // A worker that fails to load, or dies later, only says so with an `error` event.
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event: { message?: string }) =>
      reject(cannotKeep(`the database worker stopped (${event.message || 'no reason given'})`)),
    );
  });
  const storage = await workerStorage(worker, o.name ?? 'till.db', { failed, end: () => (worker.terminate(), o.onClose?.()) });
  return { ...storage, persisted: askPersistence() };
}

/**
 * A storage over any port a `serveSqlite` answers on: the worker in a browser, a `MessagePort` in
 * the Node tests. `failed` rejects when the worker is gone (its queries then fail with that
 * reason rather than wait forever); `end` runs once, after the database is closed or failed to open.
 */
export async function workerStorage(
  port: PortLike,
  name: string,
  o: { end?: () => void; failed?: Promise<never> } = {},
): Promise<TillStorage & { close(): Promise<void> }> {
  const link = new WorkerLink(port);
  o.failed?.catch((e: Error) => link.dispose(e));
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= link
      .request({ op: 'close' })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        link.dispose(new TillError('CLOSED', 'the till is closed'));
        o.end?.();
      }));
  try {
    await Promise.race([link.request({ op: 'open', name }), ...(o.failed ? [o.failed] : [])]);
  } catch (e) {
    link.dispose(new TillError('CLOSED', 'the database did not open'));
    o.end?.();
    if (e instanceof WorkerSqliteError && e.kind === 'busy') throw openElsewhere();
    if (e instanceof WorkerSqliteError) throw cannotKeep(e.message);
    throw e;
  }
  return { dialect: new WorkerSqliteDialect(link, close), close };
}

/** Ask the browser to keep the origin's storage under disk pressure (best-effort storage may be evicted). */
async function askPersistence(): Promise<boolean> {
  const storage = (globalThis as { navigator?: { storage?: { persisted?(): Promise<boolean>; persist?(): Promise<boolean> } } }).navigator
    ?.storage;
  try {
    return (await storage?.persisted?.()) || ((await storage?.persist?.()) ?? false);
  } catch {
    return false;
  }
}
