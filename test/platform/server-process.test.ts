/**
 * The server as `npm start` runs it: its own process, a real port, the configured database,
 * registration to switch-store over HTTP, and a clean exit on SIGTERM.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../setup/factories.js';
import { freePort, startScript } from '../setup/processes.js';
import { createTestDb, DIALECT, type TestDb } from '../setup/test-db.js';

const ADMIN_EMAIL = 'root@duka.test';

const start = (env: Record<string, string>, script = 'server/src/index.ts', args: string[] = []) =>
  startScript(script, { LOG_LEVEL: 'info', ...env }, args);

async function waitFor(check: () => boolean, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`npm start (${DIALECT})`, () => {
  let db: TestDb | undefined;
  let proc: ReturnType<typeof start>;
  let base: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'duka-start-'));

  beforeAll(async () => {
    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port), DATA_DIR: dataDir };
    if (DIALECT === 'postgres') {
      db = await createTestDb();
      env.DATABASE_URL = db.url!;
      env.JWT_SECRET = 'start-test-secret-start-test-secret-0001';
    }
    const migrate = start(env, 'server/src/cli/migrate.ts');
    expect(await migrate.exited, migrate.errors()).toBe(0);
    const admin = start(env, 'server/src/cli/admin-create.ts', ['--email', ADMIN_EMAIL, '--password', 'platform2026']);
    expect(await admin.exited, admin.errors()).toBe(0);
    expect(admin.output()).toContain(`platform admin created: ${ADMIN_EMAIL}`);
    const again = start(env, 'server/src/cli/admin-create.ts', ['--email', ADMIN_EMAIL, '--password', 'platform2026']);
    expect(await again.exited).toBe(1);
    expect(again.errors().trim()).toBe('an account with this email or phone already exists');
    proc = start(env);
    await waitFor(() => proc.output().includes('Duka API at'), 'the server to listen');
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    (proc.child as ChildProcess).kill('SIGKILL');
    await db?.drop();
  });

  it('serves the API over a real port: register, login, refresh, switch store, docs', async () => {
    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${base}/api/v1${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const reg = registrationBody();
    const registered = await post('/auth/register', reg);
    expect(registered.status).toBe(201);
    const login = await post('/auth/login', { identifier: reg.phone, password: reg.password });
    expect(login.status).toBe(200);
    const tokens = ((await login.json()) as any).data;
    const refreshed = await post('/auth/refresh', { refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const pair = ((await refreshed.json()) as any).data;
    const storeId = ((await registered.json()) as any).data.store_id;
    const switched = await post('/accounts/switch-store', { store_id: storeId }, pair.access_token);
    expect(switched.status).toBe(200);
    expect(((await switched.json()) as any).data.store.id).toBe(storeId);
    expect((await fetch(`${base}/api/v1/docs`)).status).toBe(200);
    expect(await (await fetch(`${base}/health/ready`)).json()).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
    if (DIALECT === 'sqlite') expect(existsSync(path.join(dataDir, 'duka.db'))).toBe(true);
    // Embedded SQLite generates and keeps its secret; on PostgreSQL the operator gives it (JWT_SECRET is required there).
    expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(DIALECT === 'sqlite');
  });

  it('lets the admin made by `npm run admin:create` sign in and enrol an authenticator', async () => {
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: ADMIN_EMAIL, password: 'platform2026' }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as any).data.access_token;
    const status = await fetch(`${base}/api/v1/accounts/mfa/totp/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await status.json()) as any).data).toEqual({ enabled: false, pending: false });
    expect((await fetch(`${base}/api/v1/admin/dashboard`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
  });

  it('logs JSON lines with a request id and no secrets', () => {
    const lines = proc
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.every((l) => typeof l.req_id === 'string' && l.req_id.length > 0)).toBe(true);
    expect(proc.output()).not.toContain(registrationBody().password);
  });

  it('stops cleanly on SIGTERM', async () => {
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('"msg":"stopped"');
  });
});

describe('a bad setting', () => {
  it('stops the server at start with one clear line', async () => {
    const proc = start({ PORT: 'eighty', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'duka-bad-')) });
    expect(await proc.exited).toBe(1);
    expect(proc.errors().trim()).toBe('Invalid configuration: PORT must be a number');
  });
});
