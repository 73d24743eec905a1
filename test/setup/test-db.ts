/** A fresh, migrated database for one test file, on the dialect of the running project. */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb } from '../../server/src/db/create-db.js';
import type { DbHandle } from '../../server/src/db/handle.js';
import type { DialectName } from '../../server/src/db/dialect.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { TenantScopeCheck } from '../../server/src/db/tenant-scope-check.js';

export const DIALECT = (process.env.DUKA_TEST_DIALECT ?? 'sqlite') as DialectName;

export interface TestDb extends DbHandle {
  /** Connection settings another process can use (a postgres URL, or a SQLite file path). */
  url?: string;
  drop(): Promise<void>;
}

/** A statement on the test cluster's `postgres` database (creating and dropping databases). */
export async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The server's frame in a stack (where a statement was built), or null for a test's own statement or a migration's. */
function serverFrame(stack: string | undefined): string | null {
  const lines = stack?.split('\n') ?? [];
  if (lines.some((l) => l.includes('/migrations/'))) return null;
  // The first frame outside db/, whose wrappers (statement counting, transactions) run every statement.
  const frame = lines.find((l) => /server\/src\/(?!db\/)/.test(l));
  return (
    frame
      ?.trim()
      .replace(/^at /, '')
      .replace(/.*server\/src\//, '')
      .replace(/\)$/, '') ?? null
  );
}

const unnamed: string[] = [];

/** The server's statements on a tenant table that did not name its organisation, so far in this file. */
export const unnamedTenantStatements = () => unnamed;

/**
 * Every statement the server runs in a test is checked for naming its organisation (issue 36):
 * one that does not fails with the place that built it, and is kept for the file's end
 * (tenant-scope.setup.ts), in case the code that ran it swallowed the error. Tests' own statements
 * (reading the database to check it) and migrations are not the server's and are not checked.
 * With DUKA_TENANT_SCOPE=<file> (`npm run tenant-scope`), findings are listed there instead.
 */
function tenantScopePlugins() {
  const file = process.env.DUKA_TENANT_SCOPE;
  return [
    new TenantScopeCheck((finding) => {
      if (!file && finding.kind !== 'unnamed') return;
      const at = serverFrame(new Error().stack);
      if (file) {
        appendFileSync(file, `${JSON.stringify({ ...finding, at: at ?? '?' })}\n`);
        return;
      }
      if (!at) return;
      const what = `${finding.statement} on ${finding.table} without its org_id, at ${at}`;
      unnamed.push(what);
      throw new Error(`tenant scope: ${what}`);
    }),
  ];
}

/**
 * Postgres: a new database cloned from the migrated template. SQLite: `:memory:` or `file`, migrated.
 * `dialect` overrides the project's (an embedded shop in a Postgres-only test).
 */
export async function createTestDb(opts: { sqliteFile?: string; countStatements?: boolean; dialect?: DialectName } = {}): Promise<TestDb> {
  if ((opts.dialect ?? DIALECT) === 'postgres') {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE duka_template`);
    const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
    const handle = createDb({ url, poolSize: 20, countStatements: opts.countStatements, plugins: tenantScopePlugins() });
    return {
      ...handle,
      url,
      async drop() {
        await handle.close();
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const handle = createDb({
    sqliteFile: opts.sqliteFile ?? ':memory:',
    countStatements: opts.countStatements,
    plugins: tenantScopePlugins(),
  });
  await migrateToLatest(handle.db);
  return { ...handle, url: opts.sqliteFile, drop: () => handle.close() };
}
