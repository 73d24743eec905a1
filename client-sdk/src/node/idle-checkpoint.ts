/**
 * The Node till's idle checkpoint, on a worker thread with a connection of its own.
 *
 * better-sqlite3 runs a statement on the calling thread. A checkpoint on the till's own connection
 * copies the WAL's pages into the file and syncs it while the event loop waits: a scan that lands
 * then waits out the copy and the fsync (the slowest sale of a quiet till). A PASSIVE checkpoint on
 * another connection neither waits for nor stops the till's writer, so the sale goes on beside it.
 * The server's checkpointer (`server/src/db/wal-checkpoint.ts`) is the same idea on a timer.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface IdleCheckpointer {
  /** Fold the WAL into the file; a call while one runs shares it. */
  run(): Promise<void>;
  /** Close the worker's connection and end it (after a checkpoint in flight). */
  close(): Promise<void>;
}

// CommonJS run by `eval`: a worker needs no file of its own, so it loads the same way under tsx,
// vitest and a build. The connection opens on the first checkpoint, as the till is idle by then.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
let db;
parentPort.on('message', (m) => {
  if (m === 'stop') {
    db?.close();
    parentPort.close();
    return;
  }
  try {
    db ??= new SQLite(workerData.file, { fileMustExist: true });
    db.pragma('synchronous = FULL');
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String(err && err.message) });
  }
});
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

export function idleCheckpointer(file: string): IdleCheckpointer {
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;

  const start = (): Worker => {
    const w = new Worker(WORKER, { eval: true, workerData: { file, driver: DRIVER } });
    // A till's script must not stay up for its checkpointer: an abandoned checkpoint is safe.
    w.unref();
    w.once('exit', () => {
      if (worker === w) worker = null;
    });
    return w;
  };

  const once = (w: Worker): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const done = (m: { ok: boolean; message?: string }) => {
        w.off('error', failed).off('exit', gone);
        if (m.ok) resolve();
        else reject(new Error(`the idle checkpoint failed: ${m.message}`));
      };
      const failed = (err: Error) => {
        w.off('message', done).off('exit', gone);
        reject(err);
      };
      const gone = () => {
        w.off('message', done).off('error', failed);
        resolve();
      };
      w.once('message', done).once('error', failed).once('exit', gone);
      w.postMessage('checkpoint');
    });

  return {
    run() {
      if (running) return running;
      worker ??= start();
      running = once(worker).finally(() => {
        running = null;
      });
      return running;
    },
    async close() {
      const w = worker;
      worker = null;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      // Held open until the worker has closed its connection, or a script ends first.
      w.ref();
      w.postMessage('stop');
      await exited;
    },
  };
}
