/**
 * SQLite's reads off the writer's thread (issue 53).
 *
 * better-sqlite3 runs each statement on the thread that calls it: on the server's one event loop,
 * a product search's few milliseconds of SQL hold every socket, sale and sync behind it. Here a few
 * worker threads each open a read-only connection of their own to the same file; WAL lets them read
 * while the one writer writes, each seeing what was committed when its statement began. The event
 * loop posts a statement's text and parameters and gets its rows back.
 *
 * A worker that dies is replaced (once it had opened the database: one that cannot open it is not
 * retried), and what was asked of it, or is asked while no worker is alive, is answered `null`:
 * the caller then reads on the main connection (read-dialect.ts), so a client never sees the
 * difference. Only statements SQLite calls readers run here; anything else is refused.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { rowMaker } from '@duka/shared';

// CommonJS run by `eval`, as wal-checkpoint.ts's worker: no file of its own to find under tsx,
// vitest or a build.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', (m) => {
  if (m === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    let stmt = statements.get(m.sql);
    if (!stmt) {
      stmt = db.prepare(m.sql);
      if (!stmt.reader) throw Object.assign(new Error('the read pool runs reads only'), { code: 'DUKA_NOT_A_READ' });
      stmt.raw(true);
      if (statements.size >= 500) statements.delete(statements.keys().next().value);
      statements.set(m.sql, stmt);
    }
    const rows = stmt.all(m.params);
    // Named after it ran: a schema changed since (by the writer's connection) made SQLite prepare it again.
    parentPort.postMessage({ id: m.id, names: stmt.columns().map((c) => c.name), rows });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
parentPort.postMessage('ready');
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * The rows a worker read as arrays, made objects on this thread (`rowMaker`, as the main
 * connection's are): arrays cross between threads cheaper than objects, and objects made by one
 * literal read and serialise faster. Makers are kept by column names, a few hundred at most.
 */
const makers = new Map<string, (values: readonly unknown[]) => Record<string, unknown>>();
function objects(names: string[], rows: unknown[][]): unknown[] {
  const key = names.join('\u0000');
  let make = makers.get(key);
  if (!make) {
    make = rowMaker(names);
    if (makers.size >= 500) makers.delete(makers.keys().next().value!);
    makers.set(key, make);
  }
  const out: unknown[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = make(rows[i]!);
  return out;
}

export interface ReadPool {
  /** The rows of a read, or `null` when no worker could answer it: read it on the main connection then. */
  read(sql: string, params: readonly unknown[]): Promise<unknown[] | null>;
  /**
   * Runs `fn` with no read in a worker: new reads wait, those under way finish first. The WAL
   * checkpoint's pause uses it (sqlite.ts): a reader holding a snapshot from before the checkpoint
   * would stop it copying everything, and the writer from starting the WAL over, so under reads
   * without a pause the WAL would only grow.
   */
  quiet<T>(fn: () => Promise<T>): Promise<T>;
  /** The workers alive now, opening their connection or open (metrics; tests end one to see it replaced). */
  workers(): readonly Worker[];
  close(): Promise<void>;
}

interface Pending {
  resolve(rows: unknown[] | null): void;
  reject(err: Error): void;
}

interface Reader {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

/** `size` read-only connections to `file` (a WAL database the caller has opened and keeps open). */
export function readPool(file: string, size: number, onError: (err: Error) => void = () => {}): ReadPool {
  const readers = new Set<Reader>();
  let closing = false;
  let nextId = 0;
  // While quiet: the reads waiting to be sent, and the wake-up of `quiet` once the last read under way is answered.
  let held: Array<() => void> | null = null;
  let drained: (() => void) | null = null;
  const underWay = () => [...readers].reduce((n, r) => n + r.pending.size, 0);
  const answered = () => {
    if (drained && underWay() === 0) drained();
  };

  const start = () => {
    const worker = new Worker(WORKER, { eval: true, workerData: { file, driver: DRIVER } });
    // The server must not stay up for its readers; nor should a test runner.
    worker.unref();
    const reader: Reader = { worker, ready: false, pending: new Map() };
    readers.add(reader);
    worker.on('message', (m: 'ready' | { id: number; names: string[]; rows: unknown[][]; error?: { message: string; code?: string } }) => {
      if (m === 'ready') return void (reader.ready = true);
      const p = reader.pending.get(m.id);
      reader.pending.delete(m.id);
      if (m.error) p?.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else p?.resolve(objects(m.names, m.rows));
      answered();
    });
    worker.on('error', onError);
    worker.once('exit', () => {
      readers.delete(reader);
      // What it was asked goes to the main connection; a reader that had worked is replaced.
      for (const p of reader.pending.values()) p.resolve(null);
      reader.pending.clear();
      answered();
      if (!closing && reader.ready) start();
    });
  };
  for (let i = 0; i < size; i++) start();

  const send = (sql: string, params: readonly unknown[]): Promise<unknown[] | null> => {
    // The least busy reader that has opened the database.
    let best: Reader | undefined;
    for (const r of readers) if (r.ready && (!best || r.pending.size < best.pending.size)) best = r;
    if (!best || closing) return Promise.resolve(null);
    const id = nextId++;
    const reader = best;
    return new Promise((resolve, reject) => {
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage({ id, sql, params });
    });
  };

  return {
    read(sql, params) {
      if (!held) return send(sql, params);
      const waiting = held;
      return new Promise<void>((resolve) => waiting.push(resolve)).then(() => send(sql, params));
    },
    async quiet(fn) {
      if (held) return fn();
      held = [];
      try {
        if (underWay() > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        return await fn();
      } finally {
        const waiting = held;
        held = null;
        for (const go of waiting) go();
      }
    },
    workers: () => [...readers].map((r) => r.worker),
    async close() {
      closing = true;
      await Promise.all(
        [...readers].map(
          (r) =>
            new Promise<void>((resolve) => {
              r.worker.once('exit', () => resolve());
              // Held open until the worker has closed its connection, or a script ends first.
              r.worker.ref();
              r.worker.postMessage('stop');
            }),
        ),
      );
    },
  };
}
