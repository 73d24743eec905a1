/**
 * Backups and restore, end to end with real processes: the server as `npm start` runs it,
 * `npm run backup` while it sells, `npm run restore` after it stops, and a till whose sales since
 * the backup the restored server no longer has. The till sends them again; every sale ends on the
 * server exactly once, stock exact, and every store is told of the restore.
 *
 * On the Postgres project the same story runs on a PostgreSQL of its own, through pg_dump and
 * pg_restore: release 15, the one this machine's Debian client tools can dump (a pg_dump refuses
 * a newer server), so the run needs `postgresql-client-15` (`.ci/run` installs it when missing).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Till } from '@duka/client-sdk';
import { withPostgres } from '../chaos/embedded-postgres.js';
import { ONE_PIXEL_PNG, registrationBody } from '../setup/factories.js';
import { freePort, startScript } from '../setup/processes.js';
import { DIALECT } from '../setup/test-db.js';

async function waitFor(check: () => boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The major version of the pg_dump on PATH, or null when there is none. */
function pgDumpMajor(): number | null {
  try {
    return Number(/\(PostgreSQL\) (\d+)/.exec(execFileSync('pg_dump', ['--version']).toString())?.[1] ?? NaN) || null;
  } catch {
    return null;
  }
}
const PG_DUMP = DIALECT === 'postgres' ? pgDumpMajor() : null;

// Without the client tools a developer's run passes over the Postgres case; CI always has them.
if (DIALECT === 'postgres' && PG_DUMP === null && !process.env.CI)
  console.warn('backup-restore: no pg_dump on PATH; the Postgres restore test is skipped (install postgresql-client-15)');

describe.runIf(DIALECT === 'sqlite' || PG_DUMP !== null || process.env.CI)(`backup and restore (${DIALECT})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'duka-restore-'));
  const backupDir = path.join(dataDir, 'backups');
  let env: Record<string, string>;
  let server: ReturnType<typeof startScript> | null = null;
  let base: string;
  let till: Till | undefined;

  async function startServer() {
    server = startScript('server/src/index.ts', env);
    await waitFor(() => server!.output().includes('Duka API at') || server!.child.exitCode !== null, 'the server to listen');
    expect(server.child.exitCode, server.errors()).toBeNull();
  }
  async function stopServer() {
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = null;
  }
  const run = async (script: string, args: string[] = []) => {
    const p = startScript(script, env, args);
    const code = await p.exited;
    return { code, out: p.output(), err: p.errors() };
  };

  afterAll(async () => {
    await till?.close();
    server?.child.kill('SIGKILL');
  });

  it('takes a backup while selling, restores it after a stop, and the till sends again what the server lost, once', async () => {
    if (DIALECT === 'postgres') {
      expect(PG_DUMP, 'pg_dump 15 or newer on PATH (apt-get install postgresql-client-15)').toBeGreaterThanOrEqual(15);
      await withPostgres('duka_restore', (url) => story({ DATABASE_URL: url, JWT_SECRET: 'restore-test-secret-restore-test-secret' }), {
        major: 15,
      });
    } else await story({});
  }, 180_000);

  async function story(database: Record<string, string>) {
    const pg = 'DATABASE_URL' in database;
    const port = await freePort();
    const metricsPort = await freePort();
    env = {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      BACKUP_EVERY: '0',
      LOG_LEVEL: 'info',
      ...database,
    };
    base = `http://127.0.0.1:${port}/api/v1`;
    await startServer();
    // Metrics on their own port need no token; the API's port does not serve them without METRICS_TOKEN.
    await waitFor(() => server!.output().includes('metrics at /metrics'), 'the metrics port');
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(pg ? /^duka_db_pool_connections\{state="total"\} \d+$/m : /^duka_sqlite_wal_bytes \d+$/m);
    expect(metrics).toMatch(/^duka_websockets_open 0$/m);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);

    const call = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: {
          ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data: any; meta: any };
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json;
    };
    const reg = registrationBody();
    const owner = (await call('POST', '/auth/register', reg)).data;
    const token = owner.tokens.access_token as string;
    const soda = (
      await call('POST', '/inventory/products', { name: 'Soda 500ml', barcode: '6161100000017', selling_price: 1000, stock: 40 }, token)
    ).data;
    const form = new FormData();
    form.append('file', new File([ONE_PIXEL_PNG], 'soda.png'));
    form.append('kind', 'image');
    const photo = (await call('POST', '/uploads', form, token)).data;

    till = await Till.open({ baseUrl: base, dbPath: ':memory:', deviceName: 'Counter 1', autoSync: false });
    await till.login(reg.phone, reg.password);
    await till.syncNow();
    const sell = () => till!.sell({ lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' });
    for (let i = 0; i < 3; i++) await sell();
    expect((await till.syncNow()).pushed).toBe(3);

    const backup = await run('server/src/cli/backup.ts');
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toMatch(/^backup written: .*duka-\d{8}T\d{9}Z \(\d+ bytes of database\)/);
    const [taken] = readdirSync(backupDir);
    // On PostgreSQL the secret is the operator's (JWT_SECRET is required there), not a generated file to keep.
    expect(readdirSync(path.join(backupDir, taken!)).sort()).toEqual(
      pg ? ['backup.json', 'duka.dump', 'files'] : ['backup.json', 'duka.db', 'files', 'jwt-secret'],
    );

    // Sold after the backup: the restored server will not have these.
    for (let i = 0; i < 4; i++) await sell();
    expect((await till.syncNow()).pushed).toBe(4);
    const txCount = async () => (await call('GET', '/pos/transactions?page_size=100', undefined, token)).meta.total as number;
    expect(await txCount()).toBe(7);

    // Never under a running server; never from a file that is not a whole Duka database.
    const refused = await run('server/src/cli/restore.ts', [path.join(backupDir, taken!)]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      pg
        ? /Duka servers are connected to the database \(from 127\.0\.0\.1\); stop them all before restoring/
        : /a server \(pid \d+\) is running on .*; stop it before restoring/,
    );
    await stopServer();
    const junk = path.join(dataDir, pg ? 'junk.dump' : 'junk.db');
    writeFileSync(junk, Buffer.alloc(8192, 7));
    const bad = await run('server/src/cli/restore.ts', [junk]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(pg ? /junk\.dump is not a readable pg_dump archive/ : /junk\.db is not a readable SQLite database/);

    const restored = await run('server/src/cli/restore.ts', [path.join(backupDir, taken!)]);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/the replaced database is kept in .*before-restore-.*; 1 store\(s\) notified/);
    expect(readdirSync(restored.out.match(/kept in (\S+);/)![1]!)).toContain(pg ? 'duka.dump' : 'duka.db');
    await startServer();
    expect(await txCount()).toBe(3);
    expect((await fetch(`${base}${photo.url.replace('/api/v1', '')}`)).status).toBe(200);

    const events: Array<{ expected_seq: number; last_acked_seq: number }> = [];
    till.on('server-restored', (e) => events.push(e));
    const report = await till.syncNow();
    expect(events).toEqual([{ expected_seq: 4, last_acked_seq: 7 }]);
    expect(report.pushed).toBe(4);
    expect(await txCount()).toBe(7);
    expect((await call('GET', `/inventory/products/${soda.id}`, undefined, token)).data.stock).toBe(33);
    expect(till.status().pending).toBe(0);
    // Sent again, not twice: a second sync changes nothing.
    await till.syncNow();
    expect(await txCount()).toBe(7);

    const notes = (await call('GET', '/notifications', undefined, token)).data.notifications as Array<{ title: string; category: string }>;
    expect(notes.filter((n) => n.title === 'The server was restored from a backup')).toEqual([
      expect.objectContaining({ category: 'system' }),
    ]);
    await stopServer();
  }
});
