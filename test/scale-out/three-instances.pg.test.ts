/**
 * Issue 34's proof beside the chaos run: three instances on one PostgreSQL through a real PgBouncer
 * (transaction mode) behind a real nginx, their files in a real S3-compatible server. They start
 * together on an empty database; a file uploaded through one downloads through the others;
 * realtime crosses instances; the same answers come back whichever instance takes a request; and
 * what the background jobs of all three do happens once (a low-stock notification, a scheduled
 * report's email). Each fiscal receipt once is the chaos run's check (chaos-three-instances).
 */
import { migrations } from '../../migrations/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../setup/factories.js';
import { type S3Server, startS3Server } from '../setup/s3-server.js';
import { connect, wsUrl } from '../setup/ws-client.js';
import { call, type Deployment, deploy } from './deployment.js';

describe('three instances behind nginx and PgBouncer', () => {
  let d: Deployment;
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
    d = await deploy(3, Object.fromEntries(Object.entries(s3.config).map(([k, v]) => [k, String(v)])));
  }, 120_000);
  afterAll(async () => {
    await d?.stop();
    await s3?.stop();
  });

  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: d.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };

  it('starts three instances at once on an empty database: the schema is migrated once, and no session lock is left behind', async () => {
    const applied = await query('select name from kysely_migration order by name');
    expect(applied.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    // The migrator's advisory lock was taken and given back on the direct connection.
    expect(await query("select count(*)::int as n from pg_locks where locktype = 'advisory'")).toEqual([{ n: 0 }]);
  });

  it('a websocket on instance C hears a sale made on instance A; a websocket through nginx hears it too', async () => {
    const reg = await call(d.api(), 'POST', '/auth/register', registrationBody());
    const token = reg.data.tokens.access_token as string;
    const product = (await call(d.api(1), 'POST', '/inventory/products', { name: 'Sukari 1kg', selling_price: 3200, stock: 40 }, token))
      .data;
    const onC = await connect(wsUrl(d.servers[2]!.url), token);
    const viaNginx = await connect(wsUrl(d.balancer.url), token);
    try {
      await onC.next('hello', 5000);
      await viaNginx.next('hello', 5000);
      const sale = await call(
        d.api(0),
        'POST',
        '/pos/sale',
        { lines: [{ product_id: product.id, qty: 3 }], payment_method: 'Cash' },
        token,
      );
      expect(sale.data.total).toBe(9600);
      for (const s of [onC, viaNginx]) {
        expect(await s.next('stock', 5000, (m) => m.stock === 37)).toEqual({ type: 'stock', product_id: product.id, stock: 37 });
        await s.next('poke', 5000);
      }
    } finally {
      await onC.close();
      await viaNginx.close();
    }
  });

  it('answers the same whichever instance takes a request: a session signed in on one is refreshed on another and signed out on a third', async () => {
    const body = registrationBody();
    await call(d.api(0), 'POST', '/auth/register', body);
    const login = (await call(d.api(1), 'POST', '/auth/login', { identifier: body.phone, password: body.password })).data;
    const refreshed = (await call(d.api(2), 'POST', '/auth/refresh', { refresh_token: login.refresh_token })).data;
    const me = await call(d.api(0), 'GET', '/accounts/me', undefined, refreshed.access_token);
    expect(me.data.user.phone).toBe(`+255${body.phone.slice(1)}`);
    await call(d.api(1), 'POST', '/auth/logout', {}, refreshed.access_token);
    // Signed out on instance B: instance C refuses the token at once (the sign-out crossed by NOTIFY).
    const after = await fetch(`${d.api(2)}/accounts/me`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(after.status).toBe(401);
  });

  it('keeps files in the object store: uploaded through instance A, downloaded through B, C and the balancer', async () => {
    const reg = await call(d.api(), 'POST', '/auth/register', registrationBody());
    const token = reg.data.tokens.access_token as string;
    const bytes = Buffer.from('%PDF-1.4 risiti ya mauzo 12,500 TZS\n');
    const form = new FormData();
    form.append('file', new File([bytes], 'risiti.pdf', { type: 'application/pdf' }));
    form.append('kind', 'receipt');
    const res = await fetch(`${d.api(0)}/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(res.status, await res.clone().text()).toBe(201);
    const file = ((await res.json()) as { data: { key: string; url: string; signed_url: string } }).data;
    expect(await s3.keys()).toContain(file.key);
    for (const base of [d.servers[1]!.url, d.servers[2]!.url, d.balancer.url]) {
      const got = await fetch(`${base}${file.url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(got.status, base).toBe(200);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
      const signed = await fetch(`${base}${file.signed_url}`);
      expect(Buffer.from(await signed.arrayBuffer())).toEqual(bytes);
    }
  });

  it("does each background job's work once across the three: one low-stock notification for sales racing on all three, one scheduled report email", {
    timeout: 120_000,
  }, async () => {
    const reg = await call(d.api(), 'POST', '/auth/register', registrationBody());
    const token = reg.data.tokens.access_token as string;
    const orgId = reg.data.org_id as string;
    const product = (
      await call(d.api(0), 'POST', '/inventory/products', { name: 'Mafuta 1L', selling_price: 5200, stock: 14, reorder_point: 5 }, token)
    ).data;
    // Ten sales at once over the three instances: one of them takes the level from 6 to 5.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(d.api(i % 3), 'POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' }, token),
      ),
    );

    const to = `ripoti.${orgId.slice(0, 8)}@duka.test`;
    const schedule = (
      await call(
        d.api(1),
        'POST',
        '/reports/scheduled',
        { report_type: 'sales', name: 'Kila siku', frequency: 'daily', date_range_preset: '7d', recipients: [to] },
        token,
      )
    ).data;
    // Due a minute ago: the next tick of any instance sends it.
    await query(`update scheduled_reports set next_run_at = ${Date.now() - 60_000} where id = '${schedule.id}'`);

    const mails = () => query(`select count(*)::int as n from outbox where recipient = '${to}'`);
    const deadline = Date.now() + 45_000;
    while ((await mails())[0].n === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await mails()).toEqual([{ n: 1 }]);
    // Every instance ticks again (30 s) with the event retry and the scheduler: still once each.
    await new Promise((r) => setTimeout(r, 32_000));
    expect(await mails()).toEqual([{ n: 1 }]);
    const notes = await query(`select title from notifications where org_id = '${orgId}' and category = 'stock'`);
    expect(notes).toEqual([{ title: 'Low stock: Mafuta 1L' }]);
    expect(
      await query(`select count(*)::int as n from scheduled_reports where id = '${schedule.id}' and next_run_at > ${Date.now()}`),
    ).toEqual([{ n: 1 }]);
  });
});
