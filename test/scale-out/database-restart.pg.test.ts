/**
 * Issue 49: PostgreSQL restarted under load. A PostgreSQL of the test's own, three server processes
 * on it (two through a real PgBouncer in transaction mode with a direct connection for LISTEN, one
 * straight to it), three SDK tills selling every 150 ms, one on each; PostgreSQL is stopped (fast
 * shutdown: every session ends with 57P01, some mid-transaction) and started again a few seconds
 * later. Every instance stays up, answers 503 with Retry-After while the database is away, and
 * recovers by itself; websockets hear other instances' sales again; every sale is there once.
 * Beside it, an instance whose LISTEN goes through the pooler refuses to start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpConnector, Till } from '@duka/client-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_RUN_LIMITS } from '../../server/src/env.js';
import { ServerProcess } from '../chaos/server-process.js';
import { registrationBody } from '../setup/factories.js';
import { freePort } from '../setup/free-port.js';
import { type OwnPostgres, startOwnPostgres } from '../setup/own-postgres.js';
import { type PgBouncer, startPgBouncer } from '../setup/pgbouncer.js';
import { connect, type TestSocket, wsUrl } from '../setup/ws-client.js';
import { call, SECRET } from './deployment.js';

const PRICE = 1500;
const STOCK = 100_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL restarted under load', () => {
  let db: OwnPostgres;
  let pooler: PgBouncer;
  let dir: string;
  const servers: ServerProcess[] = [];
  const api = (i: number) => `${servers[i]!.url}/api/v1`;
  const env = (i: number, database: Record<string, string>) => ({
    ...database,
    DATA_DIR: path.join(dir, `server-${i}`),
    JWT_SECRET: SECRET,
    ...LOAD_RUN_LIMITS,
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'duka-pg-restart-'));
    db = await startOwnPostgres();
    // A query waits for a server connection at most 5 s, then PgBouncer answers an error (docs/scale-out.md):
    // its default, 120 s, would hold a request that long while the database is away.
    pooler = await startPgBouncer(db.url, { query_wait_timeout: 5 });
    const pooled = { DATABASE_URL: pooler.pooled(db.url), DATABASE_DIRECT_URL: db.url };
    for (const [i, database] of [pooled, pooled, { DATABASE_URL: db.url }].entries())
      servers.push(new ServerProcess(await freePort(), env(i, database)));
    await Promise.all(servers.map((s) => s.start()));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await pooler?.stop();
    await db?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };

  it('refuses to start an instance whose LISTEN goes through PgBouncer (no DATABASE_DIRECT_URL), saying what to set', async () => {
    const deaf = new ServerProcess(await freePort(), env(9, { DATABASE_URL: pooler.pooled(db.url) }));
    try {
      await expect(deaf.start()).rejects.toThrow(/the server exited with 1/);
      expect(deaf.output()).toContain('LISTEN on DATABASE_URL does not hear NOTIFY');
      expect(deaf.output()).toContain('Set DATABASE_DIRECT_URL to the database itself');
    } finally {
      await deaf.stop();
    }
  });

  it('stays up through a fast shutdown and restart: 503 with Retry-After while it is down, then sales, websockets and every sale once', {
    timeout: 120_000,
  }, async () => {
    const owner = registrationBody();
    const reg = await call(api(0), 'POST', '/auth/register', owner);
    const token = reg.data.tokens.access_token as string;
    const orgId = reg.data.org_id as string;
    const product = (await call(api(1), 'POST', '/inventory/products', { name: 'Chumvi 1kg', selling_price: PRICE, stock: STOCK }, token))
      .data;

    const tills: Till[] = [];
    for (const i of [0, 1, 2]) {
      const till = await Till.open({
        connector: new HttpConnector({ baseUrl: api(i), timeoutMs: 6_000 }),
        dbPath: path.join(dir, `till-${i}.db`),
        deviceName: `Till ${i + 1}`,
        autoSync: true,
        realtime: false,
        syncIntervalMs: 500,
        backoff: { baseMs: 200, maxMs: 1_000 },
        probeIntervalMs: 500,
      });
      await till.login(owner.phone, owner.password);
      await till.syncNow();
      tills.push(till);
    }
    const sockets: TestSocket[] = [];
    for (const i of [0, 1, 2]) {
      const s = await connect(wsUrl(servers[i]!.url), token);
      await s.next('hello', 5000);
      sockets.push(s);
    }

    // Three tills selling every 150 ms, offline-first: a sale is theirs at once and pushed when it can be.
    let selling = true;
    const sold = [0, 0, 0];
    const sellers = tills.map(async (till, i) => {
      while (selling) {
        await till.sell({ lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' });
        sold[i]!++;
        await sleep(150);
      }
    });

    try {
      await sleep(2_000);
      await db.stop();
      // While it is down: every instance answers, 503 with Retry-After, never a 500.
      const answers: Array<{ instance: number; route: string; status: number; retryAfter: string | null }> = [];
      const probe = async (i: number, route: string, init?: RequestInit) => {
        try {
          const res = await fetch(`${api(i)}${route}`, {
            ...init,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            signal: AbortSignal.timeout(20_000),
          });
          await res.text();
          answers.push({ instance: i, route, status: res.status, retryAfter: res.headers.get('retry-after') });
        } catch {
          // No answer in 20 s: an instance that hangs is as bad as one that died.
          answers.push({ instance: i, route, status: 0, retryAfter: null });
        }
      };
      const sale = { method: 'POST', body: JSON.stringify({ lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' }) };
      const downUntil = Date.now() + 6_000;
      while (Date.now() < downUntil) {
        await Promise.all(
          [0, 1, 2].flatMap((i) => [probe(i, '/pos/sale', sale), probe(i, `/inventory/products/${product.id}`), probe(i, '/sync/ping')]),
        );
        await sleep(300);
      }
      for (const s of servers) expect(s.output()).not.toMatch(/Unhandled 'error' event|unhandled error/);
      const ready = await Promise.all(servers.map((s) => fetch(`${s.url}/health/ready`).then((r) => r.status)));
      expect(ready).toEqual([503, 503, 503]);
      await db.start();

      // The ping needs no database: the instance itself answers it.
      expect(answers.filter((a) => a.route === '/sync/ping' && a.status !== 200)).toEqual([]);
      const refused = answers.filter((a) => a.route !== '/sync/ping');
      expect(refused.filter((a) => a.status !== 503)).toEqual([]);
      for (const i of [0, 1, 2]) expect(refused.filter((a) => a.instance === i).length).toBeGreaterThanOrEqual(2);
      expect(new Set(refused.map((a) => a.retryAfter))).toEqual(new Set(['2']));

      // Back: the tills' queued sales go up by themselves, and they keep selling.
      const soldAtRestart = [...sold];
      const until = Date.now() + 30_000;
      while (Date.now() < until && sold.some((n, i) => n < soldAtRestart[i]! + 10)) await sleep(200);
      selling = false;
      await Promise.all(sellers);
      await Promise.all(tills.map((t) => t.whenSynced({ timeoutMs: 30_000 })));
      for (const t of tills) expect(t.status()).toMatchObject({ pending: 0 });

      // Websockets on every instance hear a sale made on another: each LISTEN connection is back.
      const after = await call(api(2), 'POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' }, token);
      expect(after.data.total).toBe(PRICE);
      const total = sold.reduce((a, b) => a + b, 0) + 1;
      for (const s of sockets) await s.next('stock', 10_000, (m) => m.product_id === product.id && m.stock === STOCK - total);

      // Every sale the tills made, and the one made over HTTP, is there once: none lost, none doubled.
      expect(await query(`select count(*)::int as n, sum(total)::bigint as sum from transactions where org_id = '${orgId}'`)).toEqual([
        { n: total, sum: String(total * PRICE * 100) },
      ]); // the database keeps cents
      expect((await call(api(1), 'GET', `/inventory/products/${product.id}`, undefined, token)).data.stock).toBe(STOCK - total);
      for (const s of servers) expect(s.output()).not.toMatch(/Unhandled 'error' event|unhandled error/);
    } finally {
      selling = false;
      await Promise.allSettled(sellers);
      await Promise.all(sockets.map((s) => s.close()));
      await Promise.all(tills.map((t) => t.close()));
    }
    // Every instance still runs: none exited.
    for (const s of servers) expect((await fetch(`${s.url}/health/ready`)).status).toBe(200);
  });
});
