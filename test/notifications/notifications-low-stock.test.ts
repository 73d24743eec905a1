import { Envelope, newId, NotificationList, PageMeta } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import type { DomainEvent, SaleCreated } from '../../server/src/lib/domain-events.js';
import { lowStockNotifications } from '../../server/src/modules/notifications/services/low-stock.js';
import { insertStore } from '../../server/src/modules/tenancy/stores.queries.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const SUBSCRIBER = 'low-stock-notifications';

interface Line {
  product_id: string;
  product_name: string;
  qty: number;
  /** Issue 51: the unit of the figures; none on an event from before units (pieces). */
  unit?: string;
  stock_after: number | null;
  reorder_point: number;
  is_service: boolean;
}

const line = (over: Partial<Line> = {}): Line => ({
  product_id: newId(),
  product_name: 'Sukari 1kg',
  qty: 2,
  stock_after: 4,
  reorder_point: 5,
  is_service: false,
  ...over,
});

describe('low-stock notifications (transaction.created subscriber)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const publish = (orgId: string, storeId: string, lines: unknown[]) =>
    // Only the fields this subscriber reads; `lines` as a stored payload may hold them, shapes unchecked.
    withTransaction(t.serviceCtx(), (ctx) =>
      t.deps.events.publish(ctx, {
        type: 'transaction.created',
        orgId,
        storeId,
        data: { transaction_id: newId(), lines } as unknown as SaleCreated,
      }),
    );

  /** Delivery runs after commit; wait until this subscriber has recorded its delivery of the event. */
  const delivered = async (eventId: string, status: 'done' | 'failed' = 'done') => {
    for (let i = 0; i < 100; i++) {
      const row = await t.db.db
        .selectFrom('event_deliveries')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('subscriber', '=', SUBSCRIBER)
        .executeTakeFirst();
      if (row?.status === status) return row;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`event ${eventId} not ${status} by ${SUBSCRIBER}`);
  };
  const inbox = async (s: Session) =>
    Envelope(NotificationList, PageMeta).parse((await t.request('GET', '/notifications', { token: s.token })).body).data;
  const saleOf = async (s: Session, lines: unknown[]) => {
    const event = await publish(s.orgId, s.storeId, lines);
    await delivered(event.id);
    return inbox(s);
  };

  it("notifies once, in the sale's store, when a sale takes a product from above its reorder point to at or below it", async () => {
    const owner = await registerOwner(t);
    const sukari = line({ qty: 3, stock_after: 4, reorder_point: 5 });
    const { notifications, unread_count } = await saleOf(owner, [sukari]);
    expect(unread_count).toBe(1);
    expect(notifications).toEqual([
      {
        id: expect.any(String),
        store_id: owner.storeId,
        category: 'stock',
        title: 'Low stock: Sukari 1kg',
        body: 'Only 4 units of Sukari 1kg left; order more. Vimebaki vipande 4 tu; agiza zaidi.',
        link: `/inventory/products/${sukari.product_id}`,
        is_read: false,
        created_at: expect.any(String),
      },
    ]);
    const log = await t.db.db
      .selectFrom('change_log')
      .select(['entity', 'op', 'store_id'])
      .where('entity_id', '=', notifications[0]!.id)
      .execute();
    expect(log).toEqual([{ entity: 'notification', op: 'upsert', store_id: owner.storeId }]);
  });

  it('counts landing exactly on the reorder point, and names one unit or an empty shelf', async () => {
    const owner = await registerOwner(t);
    const { notifications } = await saleOf(owner, [
      line({ product_name: 'Chumvi', qty: 2, stock_after: 5, reorder_point: 5 }),
      line({ product_name: 'Kiberiti', qty: 3, stock_after: 1, reorder_point: 3 }),
      line({ product_name: 'Mkate', qty: 6, stock_after: 0, reorder_point: 2 }),
    ]);
    expect(notifications.map((n) => [n.title, n.body]).sort()).toEqual([
      ['Low stock: Chumvi', 'Only 5 units of Chumvi left; order more. Vimebaki vipande 5 tu; agiza zaidi.'],
      ['Low stock: Kiberiti', 'Only 1 unit of Kiberiti left; order more. Kimebaki kipande 1 tu; agiza zaidi.'],
      ['Out of stock: Mkate', 'Mkate is out of stock; order more. Mkate imekwisha; agiza zaidi.'],
    ]);
  });

  it('creates nothing for products already at or below their reorder point, still above it, or services', async () => {
    const owner = await registerOwner(t);
    const { notifications } = await saleOf(owner, [
      line({ product_name: 'Already low', qty: 1, stock_after: 3, reorder_point: 5 }),
      line({ product_name: 'Was exactly at the point', qty: 1, stock_after: 4, reorder_point: 5 }),
      line({ product_name: 'Still plenty', qty: 2, stock_after: 6, reorder_point: 5 }),
      line({ product_name: 'Kusaga', qty: 1, stock_after: null, reorder_point: 0, is_service: true }),
      line({ product_name: 'Sentinel' }),
    ]);
    expect(notifications.map((n) => n.title)).toEqual(['Low stock: Sentinel']);
  });

  it('notifies a later sale of nothing once the product is already below its point', async () => {
    const owner = await registerOwner(t);
    const id = newId();
    await saleOf(owner, [line({ product_id: id, product_name: 'Chai', qty: 2, stock_after: 5, reorder_point: 5 })]);
    const after = await saleOf(owner, [
      line({ product_id: id, product_name: 'Chai', qty: 2, stock_after: 3, reorder_point: 5 }),
      line({ product_name: 'Sentinel' }),
    ]);
    expect(after.notifications.map((n) => n.title).sort()).toEqual(['Low stock: Chai', 'Low stock: Sentinel']);
  });

  it('sums several lines of one product: one notification, and a crossing no single line shows', async () => {
    const owner = await registerOwner(t);
    const maji = newId();
    const soda = newId();
    const { notifications } = await saleOf(owner, [
      line({ product_id: maji, product_name: 'Maji 1L', qty: 2, stock_after: 4, reorder_point: 5 }),
      line({ product_id: maji, product_name: 'Maji 1L', qty: 2, stock_after: 4, reorder_point: 5 }),
      ...[1, 2, 3].map(() => line({ product_id: soda, product_name: 'Soda', qty: 1, stock_after: 0, reorder_point: 2 })),
    ]);
    expect(notifications.map((n) => n.title).sort()).toEqual(['Low stock: Maji 1L', 'Out of stock: Soda']);
  });

  it('asks for no delivery of a sale that crosses nothing', () => {
    const event = (lines: unknown, storeId: string | null = newId()) =>
      ({
        type: 'transaction.created',
        id: newId(),
        org_id: newId(),
        store_id: storeId,
        occurred_at: '',
        data: { lines },
      }) as unknown as DomainEvent<'transaction.created'>;
    expect(lowStockNotifications.wants!(event([line({ qty: 1, stock_after: 6 })]))).toBe(false);
    expect(lowStockNotifications.wants!(event(undefined))).toBe(false);
    expect(lowStockNotifications.wants!(event('junk'))).toBe(false);
    expect(lowStockNotifications.wants!(event([line()], null))).toBe(false);
    expect(lowStockNotifications.wants!(event([line()]))).toBe(true);
  });

  it('skips lines of an unexpected shape and still handles the rest', async () => {
    const owner = await registerOwner(t);
    const { notifications } = await saleOf(owner, [{ product_id: 1 }, 'junk', line({ product_name: 'Unga' })]);
    expect(notifications.map((n) => n.title)).toEqual(['Low stock: Unga']);
  });

  it('notifies after a real POST /pos/sale that crosses, and not after the next one', async () => {
    const owner = await registerOwner(t);
    const made = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sukari 1kg', selling_price: 3200, stock: 7, reorder_point: 5 },
    });
    const productId = made.body.data.id as string;
    const sell = async (qty: number) => {
      const res = await t.request('POST', '/pos/sale', {
        token: owner.token,
        body: { lines: [{ product_id: productId, qty }], payment_method: 'Cash' },
      });
      expect(res.status, res.text).toBe(201);
    };
    const stockNotes = () => t.db.db.selectFrom('notifications').select(['title', 'link']).where('store_id', '=', owner.storeId).execute();
    await sell(1);
    await sell(2);
    for (let i = 0; i < 100 && (await stockNotes()).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await sell(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(await stockNotes()).toEqual([{ title: 'Low stock: Sukari 1kg', link: `/inventory/products/${productId}` }]);
  });

  it('records a failed delivery and delivers it on retry, leaving exactly one notification', async () => {
    const owner = await registerOwner(t);
    const storeId = newId();
    const event = await publish(owner.orgId, storeId, [line({ product_name: 'Mchele 5kg' })]);
    const failed = await delivered(event.id, 'failed');
    expect(failed.attempts).toBe(1);
    const count = async () => (await t.db.db.selectFrom('notifications').select('id').where('store_id', '=', storeId).execute()).length;
    expect(await count()).toBe(0);

    await withTransaction(t.serviceCtx(), (ctx) => insertStore(ctx, owner.orgId, { id: storeId, name: 'Tawi la Kariakoo' }));
    t.clock.advance(1);
    await t.deps.events.retryPending(0);
    expect(await delivered(event.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await count()).toBe(1);

    await t.deps.events.retryPending(0);
    await t.deps.events.deliver(event);
    expect(await count()).toBe(1);
  });

  it('carries the reorder suggestion of that moment: the quantity, pack and supplier GET /inventory/reorder-suggestions gives', async () => {
    const owner = await registerOwner(t);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { token: owner.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const sukari = await api('POST', '/inventory/products', {
      name: 'Sukari 1kg',
      selling_price: 3200,
      stock: 0,
      reorder_point: 5,
      packs: [{ name: 'Bale', units: 10 }],
    });
    const mchele = await api('POST', '/inventory/products', {
      name: 'Mchele',
      unit: 'kg',
      selling_price: 2500,
      stock: 3,
      reorder_point: 2,
    });
    const supplier = await api('POST', '/suppliers', { name: 'Bakhresa Wholesale', lead_time_days: 5 });
    await api('POST', `/suppliers/${supplier.id}/deliveries`, {
      status: 'delivered',
      lines: [{ product_id: sukari.id, qty: 20, unit_cost: 2500 }],
    });
    const sell = (lines: unknown[]) => api('POST', '/pos/sale', { lines, payment_method: 'Cash' });
    const notes = () =>
      t.db.db.selectFrom('notifications').select(['title', 'body']).where('org_id', '=', owner.orgId).orderBy('title').execute();
    await sell([{ product_id: sukari.id, qty: 14 }]);
    // 16 sugar sold over the window, 4 left: ⌈16 × (5 + 14) ÷ 28⌉ = 11 needed − 4 = 7 → one bale of 10, from Bakhresa.
    // 1.5 kg of rice sold, 1.5 kg left, no supplier known (7 days): ⌈1.5 × 21 ÷ 28⌉ kg = 1.125 < its point of 2: 0.5 → 1 kg.
    await sell([
      { product_id: sukari.id, qty: 2 },
      { product_id: mchele.id, qty: 1.5 },
    ]);
    for (let i = 0; i < 100 && (await notes()).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await notes()).map((n) => [n.title, n.body])).toEqual([
      [
        'Low stock: Mchele',
        'Only 1.5 kg of Mchele left; order more. Zimebaki 1.5 kg tu; agiza zaidi. Suggested order: 1 kg. Pendekezo: agiza 1 kg.',
      ],
      [
        'Low stock: Sukari 1kg',
        'Only 4 units of Sukari 1kg left; order more. Vimebaki vipande 4 tu; agiza zaidi. Suggested order: 1 x Bale (10 units) from Bakhresa Wholesale. Pendekezo: agiza 1 x Bale (10 units) kutoka Bakhresa Wholesale.',
      ],
    ]);
    const suggested = (await api('GET', '/inventory/reorder-suggestions')).groups.flatMap(
      (g: { supplier_name: string | null; suggestions: Array<{ name: string; suggested: number; pack: { packs: number } | null }> }) =>
        g.suggestions.map((x) => [g.supplier_name, x.name, x.suggested, x.pack?.packs ?? null]),
    );
    expect(suggested).toEqual([
      ['Bakhresa Wholesale', 'Sukari 1kg', 10, 1],
      [null, 'Mchele', 1, null],
    ]);
  });

  it("words a measured product's level in its unit: the sale's event names the unit of its figures", async () => {
    const owner = await registerOwner(t);
    const made = await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Sukari', selling_price: 3200 } });
    expect(made.status, made.text).toBe(200);
    const id: string = made.body.data.id;
    await t.db.db.updateTable('products').set({ unit: 'kg' }).where('org_id', '=', owner.orgId).where('id', '=', id).execute();
    // 0.75 kg sold from 2.25 kg leaves 1.5 kg, under a reorder point of 2 kg.
    const { notifications } = await saleOf(owner, [
      line({ product_id: id, product_name: 'Sukari', qty: 0.75, unit: 'kg', stock_after: 1.5, reorder_point: 2 }),
    ]);
    // The suggestion reads the product as stored (no stock: this event is made up, no sale took any), rounded to a whole kg.
    expect(notifications.map((n) => [n.title, n.body])).toEqual([
      [
        'Low stock: Sukari',
        'Only 1.5 kg of Sukari left; order more. Zimebaki 1.5 kg tu; agiza zaidi. Suggested order: 1 kg. Pendekezo: agiza 1 kg.',
      ],
    ]);
  });
});
