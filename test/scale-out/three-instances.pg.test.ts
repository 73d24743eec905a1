/**
 * Issue 34's proof beside the chaos run: three instances on one PostgreSQL through a real PgBouncer
 * (transaction mode) behind a real nginx. They start together on an empty database; realtime
 * crosses instances; the same answers come back whichever instance takes a request.
 */
import { migrations } from '../../migrations/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../setup/factories.js';
import { connect, wsUrl } from '../setup/ws-client.js';
import { call, type Deployment, deploy } from './deployment.js';

describe('three instances behind nginx and PgBouncer', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy(3);
  }, 120_000);
  afterAll(async () => d?.stop());

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
    const product = (await call(d.api(1), 'POST', '/inventory/products', { name: 'Sukari 1kg', selling_price: 3200, stock: 40 }, token)).data;
    const onC = await connect(wsUrl(d.servers[2]!.url), token);
    const viaNginx = await connect(wsUrl(d.balancer.url), token);
    try {
      await onC.next('hello', 5000);
      await viaNginx.next('hello', 5000);
      const sale = await call(d.api(0), 'POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 3 }], payment_method: 'Cash' }, token);
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
});
