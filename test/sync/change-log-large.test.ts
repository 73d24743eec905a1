/** One write that changes thousands of replicated rows is recorded whole: every row in the log, one version each. */
import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('change log: a write that touches thousands of rows', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('records 6,000 product changes and the organisation when the expiry alert default changes', async () => {
    const owner = await registerOwner(t, { shop: { name: 'Famasia Kubwa', business_type: 'pharmacy' } });
    const now = Date.now();
    const products = Array.from({ length: 6000 }, (_, i) => ({
      id: newId(),
      org_id: owner.orgId,
      name: `Dawa ${i}`,
      selling_price: 1000,
      cost_price: 500,
      schedule: 'otc' as const,
      generic_name: `Generic ${i}`,
      track_batches: 1,
      created_at: now,
      updated_at: now,
    }));
    for (let at = 0; at < products.length; at += 500)
      await t.db.db
        .insertInto('products')
        .values(products.slice(at, at + 500))
        .execute();
    const before = await t.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow();

    const res = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { expiry_alert_days: 120 } });
    expect(res.status, res.text).toBe(200);

    const after = await t.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow();
    expect(after.version - before.version).toBe(6001);
    const logged = await t.db.db
      .selectFrom('change_log')
      .select([
        'entity',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.min('version').as('first'),
        (eb) => eb.fn.max('version').as('last'),
      ])
      .where('org_id', '=', owner.orgId)
      .where('version', '>', before.version)
      .groupBy('entity')
      .orderBy('entity')
      .execute();
    expect(logged.map((r) => ({ entity: r.entity, n: Number(r.n) }))).toEqual([
      { entity: 'organisation', n: 1 },
      { entity: 'product', n: 6000 },
    ]);
    expect(Math.min(...logged.map((r) => Number(r.first)))).toBe(before.version + 1);
    expect(Math.max(...logged.map((r) => Number(r.last)))).toBe(after.version);
  }, 60_000);
});
