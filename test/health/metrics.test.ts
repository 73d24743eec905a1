/**
 * GET /metrics as a Prometheus scraper sees it, and the readiness probe failing on a stuck outbox
 * or job: counters move by exactly what a sale, a push and a pull did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@duka/shared';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const TOKEN = 'scrape-me-please-0123456789';

/** The value of one sample (`name{labels} value`), labels given in any order; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('metrics and readiness', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { METRICS_TOKEN: TOKEN } })));
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.text();
  };

  it('is served only with the token, and not at all when none is configured', async () => {
    expect((await t.app.request('/metrics')).status).toBe(401);
    expect((await t.app.request('/metrics', { headers: { authorization: 'Bearer scrape-me-please-0123456780' } })).status).toBe(401);
    const open = await createTestApp();
    expect((await open.app.request('/metrics')).status).toBe(404);
    await open.close();
    const text = await scrape();
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts a sale by route pattern and status, a push by result with its conflicts, and pulled rows', async () => {
    const owner = await registerOwner(t);
    const soda = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Soda', selling_price: 1000, stock: 1 } })
    ).body.data as { id: string };
    const route = { method: 'POST', route: '/api/v1/pos/sale', status: '201' };
    const before = await scrape();
    const sold = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(sold.status, sold.text).toBe(201);
    const refused = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(refused.status).toBe(409);

    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    // Sold offline with no stock left: applied, with an oversell conflict; then the same mutation again.
    const m = {
      id: newId(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: 'T1-1',
        lines: [{ product_id: soda.id, qty: 2, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    };
    const pushed = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations: [m] } });
    expect(pushed.body.data.results[0]).toMatchObject({
      status: 'applied',
      conflicts: [expect.objectContaining({ kind: expect.any(String) })],
    });
    const conflicts = pushed.body.data.results[0].conflicts.length as number;
    expect(
      (await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations: [m] } })).body.data.results[0].status,
    ).toBe('duplicate');
    const pulled = await t.request('GET', '/sync/pull', { token: owner.token });
    expect(pulled.status, pulled.text).toBe(200);
    const boot = await t.request('GET', '/sync/bootstrap', { token: owner.token });
    expect(boot.status, boot.text).toBe(200);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('duka_http_requests_total', route)).toBe(1);
    expect(moved('duka_http_requests_total', { ...route, status: '409' })).toBe(1);
    expect(moved('duka_http_request_duration_seconds_count', route)).toBe(1);
    expect(moved('duka_sync_push_mutations_total', { result: 'applied' })).toBe(1);
    expect(moved('duka_sync_push_mutations_total', { result: 'duplicate' })).toBe(1);
    expect(moved('duka_sync_push_duration_seconds_count')).toBe(2);
    expect(moved('duka_sync_conflicts_opened_total')).toBe(conflicts);
    expect(moved('duka_sync_rows_total', { kind: 'pull' })).toBe(pulled.body.data.changes.length);
    expect(moved('duka_sync_rows_total', { kind: 'bootstrap' })).toBe(boot.body.data.rows.length);
    // Ids never become labels: the product route is counted under its pattern.
    await t.request('GET', `/inventory/products/${soda.id}`, { token: owner.token });
    expect(
      sample(await scrape(), 'duka_http_requests_total', { method: 'GET', route: '/api/v1/inventory/products/:id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    if (t.dialect === 'postgres') expect(sample(after, 'duka_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('fails readiness when the outbox stops draining or a job keeps failing, and says why', async () => {
    const ready = async () => {
      const res = await t.app.request('/health/ready');
      return { status: res.status, body: (await res.json()) as { status: string; problems?: string[] } };
    };
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', files: 'ok' } });

    await t.db.db
      .insertInto('outbox')
      .values({
        id: newId(),
        org_id: null,
        channel: 'sms',
        recipient: '+255712000001',
        subject: null,
        body: 'hello',
        attachments: null,
        created_at: t.clock.now(),
        sent_at: null,
        last_error: 'gateway down',
        claimed_at: null,
        status: 'failed',
        attempts: 1,
      })
      .execute();
    expect(sample(await scrape(), 'duka_outbox_messages', { channel: 'sms', status: 'failed' })).toBe(1);
    expect((await ready()).status).toBe(200);
    await t.deps.jobs.run('nightly-thing', async () => {
      throw new Error('disk full');
    });
    expect(sample(await scrape(), 'duka_job_failures_total', { job: 'nightly-thing' })).toBe(1);
    expect(sample(await scrape(), 'duka_job_runs_total', { job: 'nightly-thing' })).toBe(1);

    t.clock.advance(31 * 60_000);
    expect(await ready()).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        database: 'ok',
        files: 'ok',
        problems: ['nightly-thing has been failing for 31 min', 'the outbox has not delivered a message for 31 min'],
      },
    });
    await t.deps.jobs.run('nightly-thing', async () => {});
    await t.db.db.updateTable('outbox').set({ status: 'sent' }).where('status', '=', 'failed').execute();
    expect((await ready()).status).toBe(200);
  });
});
