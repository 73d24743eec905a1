/**
 * SQLite WASM for the Node tests: the browser storage's worker half (`serveSqlite`) answering on
 * a `MessageChannel`, over `@sqlite.org/sqlite-wasm`'s in-memory VFS (Node has no OPFS). Every
 * statement crosses the same protocol, with the same structured cloning, as in a browser worker.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { pageStager } from '../src/browser/page-stager.js';
import { workerStorage } from '../src/browser/storage.js';
import { type OpenedDatabase, serveSqlite } from '../src/browser/serve.js';

let module: ReturnType<typeof sqlite3InitModule> | null = null;

/** SQLite WASM's module, loaded once for the whole file. */
export const wasmModule = () => (module ??= sqlite3InitModule());

/** A worker half on a channel; `open` decides what opening means (memory by default). */
export function wasmChannel(open?: (name: string) => Promise<OpenedDatabase>) {
  const { port1, port2 } = new MessageChannel();
  serveSqlite(
    port2,
    open ??
      (async () => {
        const sqlite3 = await wasmModule();
        return { sqlite3, db: new sqlite3.oo1.DB(':memory:', 'c') };
      }),
  );
  return { port: port1, end: () => (port1.close(), port2.close()) };
}

/** A till storage on SQLite WASM in memory, through the worker protocol, bootstrap pages staged in the worker as in a browser. */
export async function wasmMemoryStorage() {
  const { port, end } = wasmChannel();
  const storage = await workerStorage(port, ':memory:', { end });
  return { ...storage, stageBootstrapPage: pageStager(port) };
}
