/** Open and migrate the database a config points at: shared by the server and the CLI tools. */
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './env.js';
import { createDb } from './db/create-db.js';
import type { DbHandle } from './db/handle.js';

export async function openDatabase(config: Config, log: Logger): Promise<DbHandle> {
  const handle = createDb({
    ...(config.DATABASE_URL
      ? {
          url: config.DATABASE_URL,
          directUrl: config.DATABASE_DIRECT_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          onConnectionError: (err: Error) => log.warn({ err }, 'idle database connection failed; it will be replaced'),
        }
      : {
          sqliteFile: path.join(config.DATA_DIR, 'duka.db'),
          onCheckpointError: (err: Error) =>
            log.error({ err }, 'the SQLite checkpoint worker stopped; SQLite checkpoints inside commits again until a restart'),
        }),
    countStatements: config.COUNT_STATEMENTS,
  });
  const applied = await handle.migrate();
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  return handle;
}
