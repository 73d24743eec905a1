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

/**
 * With DUKA_TENANT_SCOPE=<file>, every statement a test runs is checked for naming its organisation
 * (issue 36) and each finding is appended to the file as a JSON line, with the server frame that
 * ran it: `npm run tenant-scope` sums them up.
 */
function tenantScopePlugins() {
  const file = process.env.DUKA_TENANT_SCOPE;
  if (!file) return [];
  return [
    new TenantScopeCheck((finding) => {
      const frame = new Error().stack?.split('\n').find((l) => /server\/src\/(modules|sync|lib|messaging|events)\//.test(l));
      appendFileSync(
        file,
        `${JSON.stringify({
          ...finding,
          at:
            frame
              ?.trim()
              .replace(/^at /, '')
              .replace(/.*server\/src\//, '') ?? '?',
        })}\n`,
      );
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
