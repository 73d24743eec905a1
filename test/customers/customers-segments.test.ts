import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import type { EventType, NewEvent } from '../../server/src/lib/domain-events.js';
import { insertSale, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;
type Status = 'paid' | 'credit' | 'refunded' | 'void';

describe('customer statistics and segments (customer-stats subscriber)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const newCustomer = async (s: Session, name: string) => {
    const res = await t.request('POST', '/customers', { token: s.token, body: { name } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.id as string;
  };
  /** A sale in the ledger for `customerId`, `daysAgo` days before the test clock. */
  const buy = async (s: Session, customerId: string, total: number, daysAgo: number, status: Status = 'paid') => {
    const id = await insertSale(t, { orgId: s.orgId, storeId: s.storeId, total, status, at: t.clock.now() - daysAgo * DAY });
    await t.db.db.updateTable('transactions').set({ customer_id: customerId }).where('id', '=', id).execute();
    return id;
  };
  /** Publish a transaction event as the point of sale does, then wait until the bus has delivered it. */
  const publish = async (s: Session, customerId: string | null, type: EventType = 'transaction.created') => {
    // Only the fields this subscriber reads.
    const partial = { type, orgId: s.orgId, storeId: s.storeId, data: { transaction_id: 'x', customer_id: customerId } } as NewEvent;
    const event = await withTransaction(t.serviceCtx(), (ctx) => t.deps.events.publish(ctx, partial));
    for (let i = 0; i < 50; i++) {
      const row = await t.db.db.selectFrom('events').select('delivered').where('id', '=', event.id).executeTakeFirstOrThrow();
      if (row.delivered === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await t.db.db.selectFrom('event_deliveries').select(['subscriber', 'status']).where('event_id', '=', event.id).execute();
    if (customerId) expect(done).toContainEqual({ subscriber: 'customer-stats', status: 'done' });
    else expect(done.map((d) => d.subscriber)).not.toContain('customer-stats');
  };
  const customer = async (s: Session, id: string) => (await t.request('GET', `/customers/${id}`, { token: s.token })).body.data;
  const segments = async (s: Session, ids: Record<string, string>) =>
    Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, (await customer(s, id)).segment])));

  it('recomputes spend, visits and purchase dates from paid and credit sales only', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner, 'Tumaini');
    await buy(owner, c, 1_000.5, 10);
    await buy(owner, c, 2_000, 5, 'credit');
    await buy(owner, c, 9_999, 3, 'refunded');
    await buy(owner, c, 8_888, 2, 'void');
    await publish(owner, c);
    expect(await customer(owner, c)).toMatchObject({ total_spend: 3_000.5, visit_count: 2 });
    const row = await t.db.db
      .selectFrom('customers')
      .select(['first_purchase_at', 'last_purchase_at'])
      .where('id', '=', c)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_purchase_at: t.clock.now() - 10 * DAY, last_purchase_at: t.clock.now() - 5 * DAY });
    const log = await t.db.db.selectFrom('change_log').select('entity').where('entity_id', '=', c).execute();
    expect(log).toHaveLength(2);
  });

  it('gives VIP, then Regular, then New, then Occasional from hand-built histories', async () => {
    const owner = await registerOwner(t);
    const ids = {
      vip: await newCustomer(owner, 'Big Spender'),
      regular: await newCustomer(owner, 'Three In Ninety'),
      newer: await newCustomer(owner, 'First Last Week'),
      edgeNew: await newCustomer(owner, 'First 29 Days Ago'),
      lapsedNew: await newCustomer(owner, 'First 31 Days Ago'),
      twoRecent: await newCustomer(owner, 'Two In Ninety'),
      oldThird: await newCustomer(owner, 'Third Is 91 Days Old'),
    };
    await buy(owner, ids.vip, 500_000, 200);
    for (const d of [1, 45, 89]) await buy(owner, ids.regular, 1_000, d);
    await buy(owner, ids.newer, 2_000, 7);
    await buy(owner, ids.edgeNew, 2_000, 29);
    await buy(owner, ids.lapsedNew, 2_000, 31);
    for (const d of [40, 60]) await buy(owner, ids.twoRecent, 1_000, d);
    for (const d of [10, 20, 91]) await buy(owner, ids.oldThird, 1_000, d);
    for (const id of Object.values(ids)) await publish(owner, id);
    expect(await segments(owner, ids)).toEqual({
      vip: 'VIP',
      regular: 'Regular',
      newer: 'New',
      edgeNew: 'New',
      lapsedNew: 'Occasional',
      twoRecent: 'Occasional',
      oldThird: 'Occasional',
    });
    const vipList = (await t.request('GET', '/customers?segment=VIP', { token: owner.token })).body.data.items;
    expect(vipList.map((c: { name: string }) => c.name)).toEqual(['Big Spender']);
  });

  it('moves VIP to whoever now spends most, and the old VIP falls back to its own history', async () => {
    const owner = await registerOwner(t);
    const ids = { champion: await newCustomer(owner, 'Champion'), rival: await newCustomer(owner, 'Rival') };
    await buy(owner, ids.champion, 50_000, 100);
    for (const d of [3, 4, 5]) await buy(owner, ids.rival, 10_000, d);
    await publish(owner, ids.champion);
    await publish(owner, ids.rival);
    expect(await segments(owner, ids)).toEqual({ champion: 'VIP', rival: 'Regular' });
    await buy(owner, ids.rival, 30_000, 0, 'credit');
    await publish(owner, ids.rival);
    expect(await segments(owner, ids)).toEqual({ champion: 'Occasional', rival: 'VIP' });
  });

  it('makes the top 10 % VIP (at least one) and promotes whoever the line now includes', async () => {
    const owner = await registerOwner(t);
    const ids: Record<string, string> = {};
    for (let i = 1; i <= 19; i++) {
      ids[`c${i}`] = await newCustomer(owner, `Customer ${String(i).padStart(2, '0')}`);
      await buy(owner, ids[`c${i}`]!, i * 1_000, 60);
      await publish(owner, ids[`c${i}`]!);
    }
    const vips = async () =>
      (await t.request('GET', '/customers?segment=VIP', { token: owner.token })).body.data.items.map((c: { name: string }) => c.name);
    expect(await vips()).toEqual(['Customer 19']);
    ids.c20 = await newCustomer(owner, 'Customer 20');
    await buy(owner, ids.c20, 500, 60);
    await publish(owner, ids.c20);
    expect(await vips()).toEqual(['Customer 18', 'Customer 19']);
  });

  it('recomputes after a refund or void: spend falls and the segment follows (nothing bought: judged by when the customer was added)', async () => {
    const owner = await registerOwner(t);
    const top = await newCustomer(owner, 'Top');
    const c = await newCustomer(owner, 'Regular Then Not');
    await buy(owner, top, 100_000, 200);
    await publish(owner, top);
    const sales = [await buy(owner, c, 1_000, 50), await buy(owner, c, 1_000, 40), await buy(owner, c, 1_500, 2)];
    await publish(owner, c);
    expect(await customer(owner, c)).toMatchObject({ segment: 'Regular', total_spend: 3_500, visit_count: 3 });
    await t.db.db.updateTable('transactions').set({ status: 'refunded' }).where('id', '=', sales[2]!).execute();
    await publish(owner, c, 'transaction.refunded');
    expect(await customer(owner, c)).toMatchObject({ segment: 'Occasional', total_spend: 2_000, visit_count: 2 });
    await t.db.db.updateTable('transactions').set({ status: 'void' }).where('id', 'in', sales.slice(0, 2)).execute();
    await publish(owner, c, 'transaction.voided');
    expect(await customer(owner, c)).toMatchObject({ segment: 'New', total_spend: 0, visit_count: 0 });
  });

  it('ignores walk-in sales and customers of other organisations', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const c = await newCustomer(owner, 'Mine');
    await buy(owner, c, 5_000, 1);
    await publish(owner, null);
    await publish(other, c);
    expect(await customer(owner, c)).toMatchObject({ total_spend: 0, visit_count: 0, segment: 'New' });
  });
});
