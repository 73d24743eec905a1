/**
 * The mistakes an operator makes with `npm run move-to-postgres` (issue 49), each answered by the
 * real command, run as a child process, with exit code 1 and one line that names the mistake (no
 * stack trace), and nothing moved: a JWT_SECRET that differs from the shop's generated one (which
 * would sign every till out), a PostgreSQL that cannot be reached or refuses the user or the
 * database, and a --from that names no database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { secretFingerprint } from '../../server/src/lib/crypto.js';
import { registerOwner } from '../setup/factories.js';
import { freePort, startScript } from '../setup/processes.js';
import { createTestApp } from '../setup/test-app.js';
import { adminQuery, createTestDb } from '../setup/test-db.js';

describe('npm run move-to-postgres refuses an operator’s mistakes in one line', () => {
  const srcDir = mkdtempSync(path.join(tmpdir(), 'duka-mistake-src-'));
  const dstDir = mkdtempSync(path.join(tmpdir(), 'duka-mistake-dst-'));
  const target = `t_mistake_${randomBytes(4).toString('hex')}`;
  const admin = new URL(inject('pgAdminUrl'));
  const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${target}`);
  const generated = randomBytes(48).toString('base64url');

  const move = async (env: Record<string, string>, args: string[] = ['--from', srcDir]) => {
    const p = startScript('server/src/cli/move-to-postgres.ts', { DATA_DIR: dstDir, LOG_LEVEL: 'silent', ...env }, args);
    const code = await p.exited;
    return { code, out: p.output(), err: p.errors().trim() };
  };
  /** Refused with exit 1 and exactly one line, no stack. */
  const refusedInOneLine = (r: { code: number | null; err: string }, message: RegExp) => {
    expect(r.code, r.err).toBe(1);
    expect(r.err.split('\n'), r.err).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at |Error:/);
    expect(r.err).toMatch(message);
  };
  const organisations = async () => Number((await adminQueryIn(target, 'select count(*) as n from organisations'))[0]!.n);

  beforeAll(async () => {
    // A shop on an embedded file whose server generated its secret (DATA_DIR/jwt-secret).
    writeFileSync(path.join(srcDir, 'jwt-secret'), `${generated}\n`, { mode: 0o600 });
    const t = await createTestApp({
      db: await createTestDb({ dialect: 'sqlite', sqliteFile: path.join(srcDir, 'duka.db') }),
      config: { DATA_DIR: srcDir, JWT_SECRET: generated },
    });
    await registerOwner(t);
    await t.close();
    // As its server keeps it at start (db/signing-secret.ts).
    const sqlite = new SQLite(path.join(srcDir, 'duka.db'));
    sqlite
      .prepare('insert into platform_settings (name, value, updated_at) values (?, ?, ?)')
      .run('secret_fingerprint', secretFingerprint(generated), Date.now());
    sqlite.close();
    await adminQuery(`CREATE DATABASE ${target}`);
  });
  afterAll(async () => {
    await adminQuery(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
    rmSync(srcDir, { recursive: true, force: true });
    rmSync(dstDir, { recursive: true, force: true });
  });

  it('a JWT_SECRET that differs from the shop’s jwt-secret is refused, naming both by fingerprint; --keep-secret says which', async () => {
    const other = randomBytes(48).toString('base64url');
    const refused = await move({ DATABASE_URL: url, JWT_SECRET: other });
    refusedInOneLine(
      refused,
      new RegExp(
        `^JWT_SECRET \\(${secretFingerprint(other)}\\) differs from the secret in .*jwt-secret \\(${secretFingerprint(generated)}\\): .*--keep-secret env \\(JWT_SECRET\\) or --keep-secret file$`,
      ),
    );
    expect(refused.err + refused.out).not.toContain(other);
    expect(refused.err + refused.out).not.toContain(generated);
    expect(await organisations().catch(() => 0)).toBe(0);

    const wrongWord = await move({ DATABASE_URL: url, JWT_SECRET: other }, ['--from', srcDir, '--keep-secret', 'mine']);
    refusedInOneLine(wrongWord, /^--keep-secret takes env \(keep JWT_SECRET\) or file/);

    // Told to keep JWT_SECRET, the move still checks it against what the shop's server ran with.
    refusedInOneLine(
      await move({ DATABASE_URL: url, JWT_SECRET: other }, ['--from', srcDir, '--keep-secret', 'env']),
      new RegExp(
        `^the secret from JWT_SECRET \\(${secretFingerprint(other)}\\) is not the one the server on this database ran with \\(${secretFingerprint(generated)}\\)`,
      ),
    );
    expect(await organisations().catch(() => 0)).toBe(0);

    const kept = await move({ DATABASE_URL: url, JWT_SECRET: other }, ['--from', srcDir, '--keep-secret', 'file']);
    expect(kept.code, kept.err).toBe(0);
    expect(kept.out).toContain(`secret: from ${path.join(srcDir, 'jwt-secret')} (${secretFingerprint(generated)})`);
    expect(await organisations()).toBe(1);
    // The PostgreSQL servers find the fingerprint the shop's server kept, never the secret.
    expect(await adminQueryIn(target, 'select name, value from platform_settings')).toEqual([
      { name: 'secret_fingerprint', value: secretFingerprint(generated) },
    ]);
  }, 60_000);

  it('a PostgreSQL that cannot be reached, an unknown host, a wrong password, a missing database: one line each', async () => {
    const port = await freePort();
    refusedInOneLine(
      await move({ DATABASE_URL: `postgres://duka:secret@127.0.0.1:${port}/duka` }),
      new RegExp(`^cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}: connection refused .*nothing was moved$`),
    );
    refusedInOneLine(
      await move({ DATABASE_URL: 'postgres://duka:secret@duka-no-such-host.invalid:5432/duka' }),
      /^cannot reach PostgreSQL: the host of DATABASE_URL \(duka-no-such-host\.invalid:5432\) is not known; nothing was moved$/,
    );
    const wrongPassword = `postgres://postgres:not-the-password@${admin.host}/${target}`;
    const refusedUser = await move({ DATABASE_URL: wrongPassword });
    refusedInOneLine(
      refusedUser,
      new RegExp(
        `^PostgreSQL at ${admin.host.replace(/\./g, '\\.')} refused user "postgres": .*password.*; check DATABASE_URL's user and password`,
      ),
    );
    expect(refusedUser.err).not.toContain('not-the-password');
    refusedInOneLine(
      await move({ DATABASE_URL: inject('pgAdminUrl').replace(/\/postgres$/, '/no_such_database') }),
      /^PostgreSQL at .* has no database "no_such_database": create it first \(createdb no_such_database\); nothing was moved$/,
    );
  }, 60_000);

  it('--from a folder without a database names the folder, not the secret', async () => {
    refusedInOneLine(
      await move({ DATABASE_URL: url }, ['--from', '/nonexistent']),
      /^no database at \/nonexistent: --from names the folder of duka\.db \(default DATA_DIR\), or the file$/,
    );
  });
});

async function adminQueryIn(db: string, sql: string): Promise<Array<Record<string, string>>> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl').replace(/\/postgres$/, `/${db}`) });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
