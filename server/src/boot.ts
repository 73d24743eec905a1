/** Open and migrate the database a config points at: shared by the server and the CLI tools. */
import path from 'node:path';
import type { Logger } from 'pino';
import { type Config, ConfigError } from './env.js';
import { createDb } from './db/create-db.js';
import type { DbHandle } from './db/handle.js';
import { listenHearsNotify } from './db/listen-check.js';
import { adoptSecretFingerprint } from './db/signing-secret.js';
import { secretFingerprint } from './lib/crypto.js';

export async function openDatabase(config: Config, log: Logger): Promise<DbHandle> {
  const handle = createDb({
    ...(config.DATABASE_URL
      ? {
          url: config.DATABASE_URL,
          directUrl: config.DATABASE_DIRECT_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          onConnectionError: (err: Error) => log.warn({ err }, 'a database connection failed; it will be replaced'),
        }
      : {
          sqliteFile: path.join(config.DATA_DIR, 'duka.db'),
          onCheckpointError: (err: Error) =>
            log.error({ err }, 'the SQLite checkpoint worker stopped; SQLite checkpoints inside commits again until a restart'),
          readThreads: config.SQLITE_READ_THREADS,
          onReadError: (err: Error) =>
            log.error({ err }, 'an SQLite read thread failed; it is replaced, its reads run on the main connection'),
        }),
    countStatements: config.COUNT_STATEMENTS,
  });
  const applied = await handle.migrate();
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  return handle;
}

/**
 * The server's LISTEN must hear NOTIFY, or its websockets never hear another instance's sale
 * (docs/scale-out.md, "LISTEN must reach the database"). Refuses to serve when it does not: the
 * cause is always the configuration (DATABASE_URL through a transaction pooler without
 * DATABASE_DIRECT_URL), and an instance that starts anyway looks healthy while its tills go stale.
 */
export async function refuseDeafListen(config: Config, handle: DbHandle, log: Logger): Promise<void> {
  // SQLite's bus is in-process: it hears itself at once; the check costs nothing there.
  if (await listenHearsNotify(handle)) return;
  const through = config.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
  log.fatal(
    `LISTEN on ${through} does not hear NOTIFY (a pooler in transaction mode such as PgBouncer?): websockets would never be told of changes. ` +
      'Set DATABASE_DIRECT_URL to the database itself, not the pooler. Not starting.',
  );
  await handle.close();
  process.exit(1);
}

/**
 * Refuse to serve with a JWT_SECRET other than the one the database's servers use (db/signing-secret.ts):
 * tokens of one instance would fail on another, and sealed keys would not open. A database that
 * knows none adopts this server's.
 */
export async function checkSigningSecret(config: Config, handle: DbHandle): Promise<void> {
  const mine = secretFingerprint(config.JWT_SECRET);
  const known = await adoptSecretFingerprint(handle.db, mine, Date.now());
  if (known !== mine)
    throw new ConfigError(
      `JWT_SECRET (${mine}) is not the secret this database's servers use (${known}): every server on one database must have the same JWT_SECRET; ` +
        "start this one with theirs (changing it on purpose signs every till out and makes sealed keys unreadable: docs/operations.md, 'The signing secret')",
    );
}
