/**
 * Realtime across server instances (PostgreSQL only: SQLite has one process). Two real server
 * processes share one database; a change committed through one pokes a websocket till connected
 * to the other, through LISTEN/NOTIFY.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../setup/factories.js';
import { createTestDb, type TestDb } from '../setup/test-db.js';
import { freePort, startScript } from '../setup/processes.js';
import { connect, type TestSocket, wsUrl } from '../setup/ws-client.js';

async function startServer(databaseUrl: string) {
  const port = await freePort();
  const { child, exited, output, errors } = startScript('server/src/index.ts', {
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'duka-rt-')),
    DATABASE_URL: databaseUrl,
    // Instances behind one load balancer share the secret, so a token from one is good at the other.
    JWT_SECRET: 'realtime-test-secret-realtime-test-secret',
  });
  const until = Date.now() + 30_000;
  while (!output().includes('Duka API at')) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`server did not start: ${errors()}${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = `http://127.0.0.1:${port}`;
  return { child: child as ChildProcess, base, exited, output };
}

describe.runIf(process.env.DUKA_TEST_DIALECT === 'postgres')('realtime across two server processes on one PostgreSQL', () => {
  let db: TestDb;
  let a: Awaited<ReturnType<typeof startServer>>;
  let b: Awaited<ReturnType<typeof startServer>>;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    [a, b] = await Promise.all([startServer(db.url!), startServer(db.url!)]);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    a?.child.kill('SIGKILL');
    b?.child.kill('SIGKILL');
    await db?.drop();
  });

  const call = async (base: string, method: string, p: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}/api/v1${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json.data;
  };

  it('a sale through process A pokes, and sends the stock level to, a till connected to process B', async () => {
    const reg = await call(a.base, 'POST', '/auth/register', registrationBody());
    const token = reg.tokens.access_token as string;
    const product = await call(a.base, 'POST', '/inventory/products', { name: 'Unga 2kg', selling_price: 4500, stock: 40 }, token);

    const till = await connect(wsUrl(b.base), token);
    sockets.push(till);
    const hello = await till.next('hello', 3000);

    await call(a.base, 'POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 2 }], payment_method: 'Cash' }, token);
    const poke = await till.next('poke', 5000);
    expect(poke.version).toBeGreaterThan(hello.version);
    // The product's creation (stock 40) crosses to B too, and on a busy machine it can arrive after
    // the till connected: the sale's level is the one asked for.
    expect(await till.next('stock', 5000, (m) => m.stock !== 40)).toEqual({ type: 'stock', product_id: product.id, stock: 38 });

    // And the other way round: a notification posted through B reaches a till on A.
    const onA = await connect(wsUrl(a.base), token);
    sockets.push(onA);
    await onA.next('hello', 3000);
    const posted = await call(b.base, 'POST', '/notifications', { category: 'system', title: 'Bei mpya' }, token);
    expect((await onA.next('notification', 5000)).notification).toEqual(posted);
    expect((await till.next('notification', 5000)).notification).toEqual(posted);
  });

  it('a logout through process A closes the session’s socket on process B with 4003', async () => {
    const reg = await call(a.base, 'POST', '/auth/register', registrationBody());
    const token = reg.tokens.access_token as string;
    const till = await connect(wsUrl(b.base), token);
    sockets.push(till);
    await till.next('hello', 3000);
    await call(a.base, 'POST', '/auth/logout', {}, token);
    expect(await till.closed).toEqual({ code: 4003, reason: 'session revoked' });
  });

  it('the listening connection comes back after PostgreSQL drops it, and tells its subscribers', async () => {
    const other = await createTestDb();
    try {
      const got: string[] = [];
      let reconnects = 0;
      await other.subscribe('duka_test', (p) => got.push(p), { onReconnect: () => reconnects++ });
      const killed = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`.execute(other.db);
      expect(killed.rows[0]!.n).toBe(1);
      await expect.poll(() => reconnects, { timeout: 10_000 }).toBe(1);
      await other.publish('duka_test', 'tena');
      await expect.poll(() => got, { timeout: 5000 }).toEqual(['tena']);
    } finally {
      await other.drop();
    }
  });

  it('closes its sockets with 1001 on SIGTERM and exits cleanly', async () => {
    const reg = await call(a.base, 'POST', '/auth/register', registrationBody());
    const till = await connect(wsUrl(b.base), reg.tokens.access_token);
    sockets.push(till);
    await till.next('hello', 3000);
    b.child.kill('SIGTERM');
    expect(await till.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await b.exited).toBe(0);
    expect(b.output()).toContain('"msg":"stopped"');
  });
});
