/**
 * SQLite's checkpoints off the event loop (issue 39).
 *
 * A checkpoint copies the WAL's pages into the database file and syncs it. Left to SQLite, the
 * commit that crosses 1,000 pages runs it, on the event loop: the fleet bench spent about a tenth
 * of the server's busy time there, fsyncs included, with every socket waiting. Here the server's
 * connection never checkpoints (wal_autocheckpoint=0) and a worker thread with a connection of its
 * own runs PASSIVE checkpoints (they never wait for, nor stop, the writer).
 *
 * Under a steady stream of commits a PASSIVE checkpoint rarely finds the WAL still: new frames land
 * while it copies, so it never completes, the writer never starts the WAL over, and the file
 * grows. Past `restartPages` the worker asks for a pause: the group commit finishes the transaction
 * it is in, starts no other (the loop goes on reading sockets and serving reads), the worker
 * checkpoints everything, and the next write starts the WAL from the beginning.
 *
 * Durability is SQLite's own: a checkpoint syncs the WAL before copying and the database after.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointOptions {
  /** How often the worker checkpoints, ms. */
  everyMs?: number;
  /** WAL size, in pages, past which the writer pauses for a complete checkpoint. */
  restartPages?: number;
  /** Told when the worker fails (SQLite's own checkpoints are back by then): for the server's log. */
  onError?: (err: Error) => void;
}

export interface WalCheckpointer {
  /** Called by the writer before each transaction: resolves at once unless a pause is asked for. */
  turn(): Promise<void>;
  /** The writer's wake-up, for a pause asked while no write is queued. */
  onPause(kick: () => void): void;
  /** Whether a pause waits for the writer's next turn. */
  readonly pausing: boolean;
  close(): Promise<void>;
}

// CommonJS run by `eval`: a worker needs no file of its own, so it loads the same way under tsx,
// vitest and a build.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
let db;
try {
  db = new SQLite(workerData.file, { fileMustExist: true });
} catch (err) {
  // Thrown as a plain Error: a driver's error class reaches the main thread with its code only.
  throw new Error(\`the checkpoint worker could not open the database: \${err.message} (\${err.code})\`);
}
const passive = () => {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch {
    return null; // busy (a backup's or another process's checkpoint): the next tick tries again
  }
};
let timer;
// The WAL's length when the writer last paused: asked again only once commits have followed.
let pausedAt = -1;
function tick() {
  const r = passive();
  if (r && r.log >= workerData.restartPages && r.log !== pausedAt) {
    pausedAt = r.log;
    parentPort.postMessage('pause');
  } else timer = setTimeout(tick, workerData.everyMs);
}
parentPort.on('message', (m) => {
  if (m === 'paused') {
    passive();
    parentPort.postMessage('resume');
    timer = setTimeout(tick, workerData.everyMs);
  } else if (m === 'stop') {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
timer = setTimeout(tick, workerData.everyMs);
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

export function walCheckpointer(file: string, opts: CheckpointOptions = {}, onError: (err: Error) => void = () => {}): WalCheckpointer {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, driver: DRIVER, everyMs: opts.everyMs ?? 100, restartPages: opts.restartPages ?? 1_000 },
  });
  // The server must not stay up for its checkpointer; nor should a test runner.
  worker.unref();
  let asked = false;
  // Stopped (closed, or died): nothing is asked any more, and no one waits for an answer.
  let gone = false;
  let resumed: (() => void) | null = null;
  let kick = () => {};
  worker.on('message', (m) => {
    if (m === 'pause' && !gone) {
      asked = true;
      kick();
    } else if (m === 'resume') {
      resumed?.();
      resumed = null;
    }
  });
  const stopped = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      gone = true;
      asked = false;
      resumed?.();
      resolve();
    }),
  );
  worker.on('error', (err) => {
    asked = false;
    resumed?.();
    onError(err);
  });
  return {
    get pausing() {
      return asked;
    },
    onPause(fn) {
      kick = fn;
    },
    turn() {
      if (!asked) return Promise.resolve();
      asked = false;
      return new Promise<void>((resolve) => {
        resumed = resolve;
        worker.postMessage('paused');
      });
    },
    async close() {
      gone = true;
      asked = false;
      // Held open until the worker has closed its connection, or a script ends first (exit 13).
      worker.ref();
      worker.postMessage('stop');
      await stopped;
    },
  };
}
