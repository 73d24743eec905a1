/**
 * Issue 49: on a young PostgreSQL database, each connection's foreign-key check of a sale line was
 * planned while `transactions` was small, as a scan of the whole table, and kept scanning it for
 * every line as the table grew (a burst of 10,000 pushed sales read 124 million rows). The server's
 * upkeep analyses a table that outgrew its statistics, which drops those plans: the next check on
 * the same connection looks its sale up by index.
 */
import { Envelope, newId, PushResponse } from '@duka/shared';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync push: a young PostgreSQL database', () => {
  let t: TestApp;
  let client: pg.Client | undefined;
  afterEach(async () => {
    await client?.end();
    await t.close();
  });

  /** `count` sales of one unit of `product`, seqs from `first`. */
  const sales = (product: string, first: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: newId(),
      seq: first + i,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 600_000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: `T1-${first + i}`,
        lines: [{ product_id: product, qty: 1, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    }));

  async function push(owner: Session, device_id: string, mutations: ReturnType<typeof sales>) {
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    expect(
      Envelope(PushResponse)
        .parse(res.body)
        .data.results.every((r) => r.status === 'applied'),
    ).toBe(true);
  }

  /** A sale line copied under a new id on `client`'s connection; answers the scans of `transactions` its foreign-key check made. */
  async function checkedLine(c: pg.Client): Promise<{ seq: number; idx: number }> {
    // The connection's own counts not yet reported (they add up across its transactions until then).
    const scans = async () =>
      (
        await c.query(
          `select coalesce(sum(seq_scan), 0)::int as seq, coalesce(sum(idx_scan), 0)::int as idx
             from pg_stat_xact_user_tables where relname like 'transactions%'`,
        )
      ).rows[0] as { seq: number; idx: number };
    await c.query('begin');
    const before = await scans();
    await c.query(
      `insert into transaction_lines (id, org_id, transaction_id, product_id, product_name, qty, unit_price, line_total)
       select gen_random_uuid(), org_id, transaction_id, product_id, product_name, qty, unit_price, line_total from transaction_lines limit 1`,
    );
    const after = await scans();
    await c.query('rollback');
    return { seq: after.seq - before.seq, idx: after.idx - before.idx };
  }

  it("analyses a table that outgrew its statistics, so a connection's foreign-key check stops scanning it", async () => {
    t = await createTestApp();
    const owner = await registerOwner(t);
    const product = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Soda', selling_price: 1000, stock: 100_000 },
    });
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    await push(owner, device_id, sales(product.body.data.id, 1, 100));

    // Statistics taken while the shop is young (autovacuum does so after 50 rows), and a connection
    // that has checked enough lines to keep one plan for the check: a scan, the table being small.
    client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    await client.query('analyze');
    for (let i = 0; i < 8; i++) await checkedLine(client);
    expect((await checkedLine(client)).seq).toBe(1);

    for (let first = 101; first <= 2000; first += 500) await push(owner, device_id, sales(product.body.data.id, first, 500));
    await t.db.maintain();

    const after = await checkedLine(client);
    expect(after).toEqual({ seq: 0, idx: 1 });
    // Nothing is left outgrown: a second round analyses nothing.
    const { rows } = await client.query(
      `select relname from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r'
          and pg_relation_size(oid) >= 131072 and pg_relation_size(oid) > 2 * relpages::bigint * current_setting('block_size')::bigint`,
    );
    expect(rows).toEqual([]);
  });
});
