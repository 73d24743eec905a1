/**
 * PostgreSQL's part of `npm run backup` and `npm run restore`, done with PostgreSQL's own tools:
 * `pg_dump` (custom format: a consistent snapshot while the servers run), `pg_restore`, `psql`.
 * They come from PATH, or from PG_BIN_DIR when several versions are installed: `pg_dump` must be
 * the database's major version or newer, and says so when it is not.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { SERVER_APPLICATION_NAME } from './handle.js';

const run = promisify(execFile);

export interface PostgresTarget {
  url: string;
  /** Where pg_dump, pg_restore and psql are; PATH when unset. */
  binDir?: string;
}

export class PgToolError extends Error {}

const tool = (t: PostgresTarget | { binDir?: string }, name: string) => (t.binDir ? path.join(t.binDir, name) : name);

async function call(file: string, args: string[]): Promise<string> {
  try {
    return (await run(file, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new PgToolError(`${file} was not found: install PostgreSQL's client tools or set PG_BIN_DIR`);
    // The tool's own message (version mismatch, connection refused, bad file), without our stack.
    throw new PgToolError(`${path.basename(file)} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** Dump the whole database into `file` (custom format). */
export async function dumpPostgres(t: PostgresTarget, file: string): Promise<void> {
  await call(tool(t, 'pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${t.url}`]);
}

/** A readable custom-format dump of a Duka database, or an error naming what is wrong with it. */
export async function checkDump(t: { binDir?: string }, file: string): Promise<void> {
  let list: string;
  try {
    list = await call(tool(t, 'pg_restore'), ['--list', file]);
  } catch (err) {
    if (err instanceof PgToolError && /not found: install/.test(err.message)) throw err;
    throw new PgToolError(`${file} is not a readable pg_dump archive: ${(err as Error).message}`);
  }
  if (!/ TABLE public kysely_migration /.test(list)) throw new PgToolError(`${file} is not a Duka database (no migrations table)`);
}

/** Which of our servers are connected to the database (their addresses), besides this process. */
export async function connectedServers(t: PostgresTarget): Promise<string[]> {
  const client = new pg.Client({ connectionString: t.url, application_name: 'duka-restore' });
  await client.connect();
  try {
    const { rows } = await client.query<{ addr: string | null; pid: number }>(
      'select host(client_addr) as addr, pid from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
      [SERVER_APPLICATION_NAME],
    );
    return [...new Set(rows.map((r) => r.addr ?? 'local socket'))];
  } finally {
    await client.end();
  }
}

/**
 * Replace everything in the database's public schema with the dump, in one transaction: the schema
 * is dropped and the dump's SQL (from pg_restore) is run by psql with --single-transaction, so a
 * failure leaves the database as it was rather than half restored. Dropping the schema first also
 * removes tables newer than the dump, which the next start's migrations create again.
 */
export async function loadDump(t: PostgresTarget, file: string): Promise<void> {
  const psql = spawn(tool(t, 'psql'), ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${t.url}`], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const restore = spawn(tool(t, 'pg_restore'), ['--no-owner', '--no-privileges', '--file=-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = { psql: '', restore: '' };
  psql.stderr.on('data', (d) => (stderr.psql += d));
  restore.stderr.on('data', (d) => (stderr.restore += d));
  const exited = (p: typeof psql | typeof restore, name: string) =>
    new Promise<number>((resolve, reject) => {
      p.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new PgToolError(
            err.code === 'ENOENT' ? `${name} was not found: install PostgreSQL's client tools or set PG_BIN_DIR` : err.message,
          ),
        ),
      );
      p.once('close', (code) => resolve(code ?? 1));
    });
  const done = Promise.all([exited(restore, 'pg_restore'), exited(psql, 'psql')]);
  psql.stdin.on('error', () => {}); // psql stopped early: its exit code and stderr say why.
  psql.stdin.write('DROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n');
  restore.stdout.pipe(psql.stdin);
  const [restoreCode, psqlCode] = await done;
  if (restoreCode !== 0) throw new PgToolError(`pg_restore failed: ${stderr.restore.trim()}`);
  if (psqlCode !== 0) throw new PgToolError(`psql failed, nothing was changed: ${stderr.psql.trim()}`);
}
