/**
 * Move a stopped embedded database into an empty PostgreSQL (`npm run move-to-postgres`).
 *
 * The target is migrated first, by the migrations every server runs, so its schema is exactly what
 * a PostgreSQL server expects; then, in ONE transaction, the rows the migrations seeded (plans, the
 * ADDO list) are replaced by the source's and every table is copied, parents before children
 * (target.ts), in batches (copy.ts), and counted and summed on both sides (verify.ts). Any
 * difference or error rolls the whole copy back: the target is either the whole shop or as empty
 * as it was (migrated).
 *
 * Nothing needs renumbering: change-log versions (organisations.version), device sequences
 * (devices.last_seq), receipt numbers (stores.last_number) and fiscal counters
 * (fiscal_devices.last_gc/last_dc) are columns, copied as they are, so tills pull and push on
 * without a new bootstrap. Product search needs nothing either: SQLite's FTS5 index is not copied,
 * and PostgreSQL's trigram indexes fill themselves as rows arrive.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../../../../migrations/index.js';
import { connectedServers } from '../backup-postgres.js';
import { migrateToLatest } from '../migrate.js';
import { copyTable } from './copy.js';
import { MoveError, openSource, type Source, sourceColumns } from './source.js';
import { advanceSequences, ident, targetHolds, targetTables } from './target.js';
import { checkTable, formatChecks, type TableCheck, tableMatches } from './verify.js';

export { MoveError } from './source.js';
export { formatChecks, type TableCheck } from './verify.js';

export interface MoveOptions {
  /** The SQLite database file. */
  sqliteFile: string;
  /** postgres:// URL of the target. */
  url: string;
  /** Rows per INSERT. */
  batch?: number;
  /**
   * Run on the held source once every refusal has passed, before the first row is written (the
   * CLI checks the secret and copies the files here): a refusal leaves everything untouched.
   */
  beforeCopy?: (sqlite: Source['sqlite']) => Promise<void>;
  /** Run once every table is copied and verified, in the same transaction, before it commits. */
  beforeCommit?: (client: pg.Client) => Promise<void>;
  /** Told as each table is copied. */
  progress?: (table: string, rows: number) => void;
}

const APPLICATION_NAME = 'duka-move';

function checkMigrations(have: string[]): void {
  const known = Object.keys(migrations);
  const newer = have.filter((m) => !known.includes(m));
  if (newer.length)
    throw new MoveError(
      `the database has migrations this version of Duka does not know (${newer.join(', ')}): move it with the version that last ran on it`,
    );
  const missing = known.filter((m) => !have.includes(m));
  if (missing.length)
    throw new MoveError(
      `the database lacks ${missing.length} migration(s) of this version (${missing[0]}…): start this version's server on it once (or run npm run migrate without DATABASE_URL), stop it, then move`,
    );
}

async function refuseUsedTarget(url: string): Promise<void> {
  const servers = await connectedServers({ url });
  if (servers.length)
    throw new MoveError(
      `Duka servers are connected to the target database (from ${servers.join(', ')}); a move fills an empty database before any server starts on it`,
    );
  const client = new pg.Client({ connectionString: url, application_name: APPLICATION_NAME });
  await client.connect();
  try {
    const held = await targetHolds(client);
    if (held) throw new MoveError(`the target database is not empty (${held}): a move only fills an empty database`);
  } finally {
    await client.end();
  }
}

async function migrateTarget(url: string): Promise<void> {
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1, application_name: APPLICATION_NAME }) }),
  });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** Copy and verify; answers every table's check. Throws MoveError, with nothing written, when it refuses or a check fails. */
export async function moveDatabase(o: MoveOptions): Promise<TableCheck[]> {
  const source = openSource(o.sqliteFile);
  try {
    checkMigrations(source.migrations);
    await refuseUsedTarget(o.url);
    await migrateTarget(o.url);
    const client = new pg.Client({ connectionString: o.url, application_name: APPLICATION_NAME });
    await client.connect();
    try {
      await client.query('begin');
      const tables = await targetTables(client);
      const names = tables.map((t) => t.name);
      const onlySource = source.tables.filter((t) => !names.includes(t));
      const onlyTarget = names.filter((t) => !source.tables.includes(t));
      if (onlySource.length || onlyTarget.length)
        throw new MoveError(
          `the two schemas differ: only in SQLite: ${onlySource.join(', ') || 'none'}; only in PostgreSQL: ${onlyTarget.join(', ') || 'none'}`,
        );
      const all = names.map(ident).join(', ');
      // Taken before looking, so no server that starts meanwhile can open a shop the copy would wipe.
      await client.query(`lock table ${all} in access exclusive mode`);
      const held = await targetHolds(client);
      if (held) throw new MoveError(`the target database is not empty (${held}): a move only fills an empty database`);
      // What the migrations seeded is in the source too, perhaps edited since: the source's rows win.
      await o.beforeCopy?.(source.sqlite);
      await client.query(`truncate ${all}`);
      for (const table of tables) {
        const rows = await copyTable(source.sqlite, client, table, sourceColumns(source.sqlite, table.name), { batch: o.batch ?? 1_000 });
        o.progress?.(table.name, rows);
      }
      await advanceSequences(client);
      const checks: TableCheck[] = [];
      for (const table of tables) checks.push(await checkTable(source.sqlite, client, table));
      if (!checks.every(tableMatches))
        throw new MoveError(
          `the copy does not match its source; nothing was kept:\n${formatChecks(checks.filter((c) => !tableMatches(c)))}`,
        );
      await o.beforeCommit?.(client);
      await client.query('commit');
      return checks;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      await client.end();
    }
  } finally {
    source.close();
  }
}
