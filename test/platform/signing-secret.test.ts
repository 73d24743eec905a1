/**
 * Servers sharing a database must share JWT_SECRET (issue 49): one started with another secret
 * would report ready while tills got random 401s and a refresh landing on it signed them out. The
 * real server (`npm start`, its own process) keeps the secret's fingerprint in the database at its
 * first start, never the secret, and a server with a different one refuses to start in one line.
 * A database from before the check, which knows none, adopts the first server's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../server/src/lib/crypto.js';
import { freePort, startScript } from '../setup/processes.js';
import { createTestDb, DIALECT, type TestDb } from '../setup/test-db.js';

const FIRST = 'first-secret-first-secret-first-secret-0001';
const OTHER = 'other-secret-other-secret-other-secret-0002';

describe(`the signing secret's fingerprint (${DIALECT})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'duka-secret-'));
  let db: TestDb | undefined;
  let env: Record<string, string>;

  const settings = async (): Promise<Array<{ name: string; value: string }>> => {
    if (db) return db.db.selectFrom('platform_settings').select(['name', 'value']).execute();
    const sqlite = new SQLite(path.join(dataDir, 'duka.db'));
    try {
      return sqlite.prepare('select name, value from platform_settings').all() as Array<{ name: string; value: string }>;
    } finally {
      sqlite.close();
    }
  };
  const forget = async () => {
    if (db) await db.db.deleteFrom('platform_settings').execute();
    else {
      const sqlite = new SQLite(path.join(dataDir, 'duka.db'));
      sqlite.prepare('delete from platform_settings').run();
      sqlite.close();
    }
  };

  /** Start the real server with `secret`; answers its exit code and its error output once it has listened and been stopped, or has exited. */
  async function run(secret: string): Promise<{ code: number | null; err: string; listened: boolean }> {
    const p = startScript('server/src/index.ts', { ...env, PORT: String(await freePort()), JWT_SECRET: secret, LOG_LEVEL: 'info' });
    let listened = false;
    const until = Date.now() + 20_000;
    while (p.child.exitCode === null && Date.now() < until) {
      if (p.output().includes('Duka API at')) {
        listened = true;
        p.child.kill('SIGTERM');
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const code = await p.exited;
    return { code, err: p.errors().trim(), listened };
  }

  beforeAll(async () => {
    env = { DATA_DIR: dataDir };
    if (DIALECT === 'postgres') {
      db = await createTestDb();
      env.DATABASE_URL = db.url!;
    }
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the first server’s fingerprint and refuses a server with another secret in one line', async () => {
    const first = await run(FIRST);
    expect(first, first.err).toMatchObject({ code: 0, listened: true });
    expect(await settings()).toEqual([{ name: 'secret_fingerprint', value: secretFingerprint(FIRST) }]);

    const other = await run(OTHER);
    expect(other.listened).toBe(false);
    expect(other.code).toBe(1);
    expect(other.err.split('\n')).toEqual([
      `JWT_SECRET (${secretFingerprint(OTHER)}) is not the secret this database's servers use (${secretFingerprint(FIRST)}): every server on one database must have the same JWT_SECRET; start this one with theirs (changing it on purpose signs every till out and makes sealed keys unreadable: docs/operations.md, 'The signing secret')`,
    ]);
    expect(other.err).not.toContain(OTHER);

    const again = await run(FIRST);
    expect(again, again.err).toMatchObject({ code: 0, listened: true });
  }, 60_000);

  it('a database that knows no fingerprint yet (from before the check) adopts the first server’s', async () => {
    await forget();
    const adopted = await run(OTHER);
    expect(adopted, adopted.err).toMatchObject({ code: 0, listened: true });
    expect(await settings()).toEqual([{ name: 'secret_fingerprint', value: secretFingerprint(OTHER) }]);
  }, 60_000);
});
