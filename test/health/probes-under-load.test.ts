/**
 * The readiness probe and the metrics answer while the server is overloaded: every Postgres pool
 * connection taken and more requests queued for one, or SQLite's connection held by a long
 * transaction. They read on a connection of their own (DbHandle.probeDb), so a load balancer
 * and a scraper see an answering server instead of timeouts (the 500-till soak on Postgres
 * stopped when its probe queued behind 600 requests).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('probes under load', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      sqliteFile: path.join(mkdtempSync(path.join(tmpdir(), 'duka-probe-')), 'duka.db'),
      config: { METRICS_TOKEN: 'metrics-token-0123456789' },
    });
  });
  afterAll(() => t.close());

  it('answers /health/ready and /metrics while every database connection is busy', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // More holders than the test pool's 20 connections on Postgres: the rest queue, as requests do.
    const holders = Array.from({ length: t.dialect === 'postgres' ? 25 : 1 }, () =>
      t.deps.transact(async (trx) => {
        await sql`select 1`.execute(trx);
        await held;
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    // A query through the pool waits for the holders: the state a probe must not wait in.
    let queued = false;
    const waiting = t.db.db
      .selectFrom('stores')
      .select('id')
      .execute()
      .then(() => (queued = true));

    const timeout = (ms: number) => new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms));
    const ready = Promise.resolve(t.app.request('/health/ready')).then(async (res) => ({ status: res.status, body: await res.json() }));
    expect(await Promise.race([ready, timeout(5_000)])).toEqual({ status: 200, body: { status: 'ok', database: 'ok', files: 'ok' } });
    const metrics = Promise.resolve(t.app.request('/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } })).then(
      (res) => res.status,
    );
    expect(await Promise.race([metrics, timeout(5_000)])).toBe(200);
    expect(queued).toBe(false);

    release();
    await Promise.all(holders);
    await waiting;
    expect(queued).toBe(true);
  }, 30_000);
});
