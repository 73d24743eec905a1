import { randomUUID } from 'node:crypto';
import {
  Envelope,
  MessageEnvelope,
  newId,
  Notification,
  NotificationList,
  NotificationReadAllResult,
  NotificationUnreadCount,
  PageMeta,
} from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('notifications', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  type Caller = { token: string };
  const post = (s: Caller, body: Record<string, unknown>) =>
    t.request('POST', '/notifications', { token: s.token, body: { category: 'system', title: 'Karibu', ...body } });
  const created = async (s: Caller, body: Record<string, unknown> = {}) => {
    const res = await post(s, body);
    expect(res.status, res.text).toBe(200);
    return Envelope(Notification).parse(res.body).data;
  };
  const list = async (s: Caller, query = '') => {
    const res = await t.request('GET', `/notifications${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    const { data, meta } = Envelope(NotificationList, PageMeta).parse(res.body);
    return { data, meta: PageMeta.parse(meta) };
  };
  const unread = async (s: Caller) =>
    Envelope(NotificationUnreadCount).parse((await t.request('GET', '/notifications/unread-count', { token: s.token })).body).data.count;
  const read = (s: Caller, id: string) => t.request('PATCH', `/notifications/${id}/read`, { token: s.token });
  const readAll = (s: Caller) => t.request('PATCH', '/notifications/read-all', { token: s.token });
  const remove = (s: Caller, id: string) => t.request('DELETE', `/notifications/${id}`, { token: s.token });
  const changes = (id: string) =>
    t.db.db.selectFrom('change_log').select(['entity', 'op', 'store_id']).where('entity_id', '=', id).orderBy('version').execute();
  const switchTo = async (s: Session, storeId: string): Promise<Caller> => {
    const res = await t.request('POST', '/accounts/switch-store', { token: s.token, body: { store_id: storeId } });
    expect(res.status, res.text).toBe(200);
    return { token: res.body.data.tokens.access_token };
  };

  it('creates a notification in the active store (200) and notes it in the change log', async () => {
    const owner = await registerOwner(t);
    const res = await post(owner, { category: 'credit', title: 'Deni la Juma', body: 'Juma owes 12,000', link: '/credits' });
    expect(res.status).toBe(200);
    const n = Envelope(Notification).parse(res.body).data;
    expect(n).toEqual({
      id: expect.any(String),
      store_id: owner.storeId,
      category: 'credit',
      title: 'Deni la Juma',
      body: 'Juma owes 12,000',
      link: '/credits',
      is_read: false,
      created_at: new Date(t.clock.now()).toISOString(),
    });
    expect(await changes(n.id)).toEqual([{ entity: 'notification', op: 'upsert', store_id: owner.storeId }]);
    const minimal = await created(owner, { title: 'Only a title' });
    expect(minimal).toMatchObject({ body: '', link: null, store_id: owner.storeId });
  });

  it('lists newest first with paging in meta and an exact unread count, whatever the filters', async () => {
    const owner = await registerOwner(t);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await created(owner, { title: `n${i}`, category: i % 2 ? 'stock' : 'sales' })).id);
      t.clock.advance(1000);
    }
    await read(owner, ids[0]!);
    await read(owner, ids[3]!);

    const all = await list(owner);
    expect(all.data.notifications.map((n) => n.title)).toEqual(['n6', 'n5', 'n4', 'n3', 'n2', 'n1', 'n0']);
    expect(all.data.unread_count).toBe(5);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 7, total_pages: 1 });

    const page2 = await list(owner, '?page=2&page_size=3');
    expect(page2.data.notifications.map((n) => n.title)).toEqual(['n3', 'n2', 'n1']);
    expect(page2.meta).toEqual({ page: 2, page_size: 3, total: 7, total_pages: 3 });
    expect((await list(owner, '?page=4&page_size=3')).data.notifications).toEqual([]);

    const stock = await list(owner, '?category=stock');
    expect(stock.data.notifications.map((n) => n.title)).toEqual(['n5', 'n3', 'n1']);
    expect(stock.meta.total).toBe(3);
    expect(stock.data.unread_count).toBe(5);

    expect((await list(owner, '?unread=true')).data.notifications.map((n) => n.title)).toEqual(['n6', 'n5', 'n4', 'n2', 'n1']);
    expect((await list(owner, '?unread=false')).data.notifications.map((n) => n.title)).toEqual(['n3', 'n0']);
    const unreadStock = await list(owner, '?category=stock&unread=1');
    expect(unreadStock.data.notifications.map((n) => n.title)).toEqual(['n5', 'n1']);
    expect(unreadStock.meta).toMatchObject({ total: 2, total_pages: 1 });

    expect(await unread(owner)).toBe(5);
    expect((await list(owner, '?page_size=500')).meta.page_size).toBe(100);
  });

  it('marks one read (idempotently) and answers the notification', async () => {
    const owner = await registerOwner(t);
    const n = await created(owner);
    const res = await read(owner, n.id);
    expect(res.status).toBe(200);
    expect(Envelope(Notification).parse(res.body).data).toEqual({ ...n, is_read: true });
    const row = await t.db.db.selectFrom('notifications').select(['is_read', 'read_at']).where('id', '=', n.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ is_read: 1, read_at: t.clock.now() });
    const again = await read(owner, n.id);
    expect(again.status).toBe(200);
    expect(again.body.data.is_read).toBe(true);
    expect(await changes(n.id)).toHaveLength(2);
    expect(await unread(owner)).toBe(0);
  });

  it("marks all of the active store's unread notifications read and answers how many", async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const inBranch = await created(owner, { store_id: branch.id });
    const mine = [await created(owner), await created(owner), await created(owner)];
    await read(owner, mine[0]!.id);

    const res = await readAll(owner);
    expect(res.status).toBe(200);
    expect(Envelope(NotificationReadAllResult).parse(res.body).data).toEqual({ updated: 2 });
    expect(await unread(owner)).toBe(0);
    expect((await list(owner)).data.notifications.every((n) => n.is_read)).toBe(true);
    for (const n of mine.slice(1))
      expect((await changes(n.id)).at(-1)).toEqual({ entity: 'notification', op: 'upsert', store_id: owner.storeId });
    expect(await changes(inBranch.id)).toHaveLength(1);

    expect((await readAll(owner)).body.data).toEqual({ updated: 0 });
    const other = await switchTo(owner, branch.id);
    expect(await unread(other)).toBe(1);
  });

  it('marks read in batches when a store has more unread than one batch', async () => {
    const owner = await registerOwner(t);
    const now = t.clock.now();
    for (let b = 0; b < 11; b++) {
      const rows = Array.from({ length: 100 }, () => ({
        id: newId(),
        org_id: owner.orgId,
        store_id: owner.storeId,
        category: 'stock' as const,
        title: 'x',
        created_at: now,
      }));
      await t.db.db.insertInto('notifications').values(rows).execute();
    }
    expect(await unread(owner)).toBe(1100);
    expect((await readAll(owner)).body.data).toEqual({ updated: 1100 });
    expect(await unread(owner)).toBe(0);
    const logged = await t.db.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', owner.orgId)
      .where('entity', '=', 'notification')
      .executeTakeFirstOrThrow();
    expect(Number(logged.n)).toBe(1100);
  });

  it('deletes a notification (success true) and logs the delete; a second delete is 404', async () => {
    const owner = await registerOwner(t);
    const n = await created(owner);
    const res = await remove(owner, n.id);
    expect(res.status).toBe(200);
    expect(MessageEnvelope.parse(res.body)).toMatchObject({ success: true, data: null });
    expect(await t.db.db.selectFrom('notifications').select('id').where('id', '=', n.id).executeTakeFirst()).toBeUndefined();
    expect((await changes(n.id)).at(-1)).toEqual({ entity: 'notification', op: 'delete', store_id: owner.storeId });
    expect((await remove(owner, n.id)).status).toBe(404);
    expect((await read(owner, n.id)).status).toBe(404);
  });

  it("keeps each store's notifications to itself: another store's id is invisible and 404", async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Tawi la Mwenge');
    const inMain = await created(owner, { title: 'main' });
    const inBranch = await created(owner, { store_id: branch.id, title: 'branch' });
    expect(inBranch.store_id).toBe(branch.id);

    const atBranch = await switchTo(owner, branch.id);
    expect((await list(owner)).data.notifications.map((n) => n.title)).toEqual(['main']);
    expect((await list(atBranch)).data.notifications.map((n) => n.title)).toEqual(['branch']);
    expect(await unread(owner)).toBe(1);

    for (const [caller, id] of [
      [owner, inBranch.id],
      [atBranch, inMain.id],
    ] as const) {
      for (const res of [await read(caller, id), await remove(caller, id)]) {
        expect(res.status).toBe(404);
        expect(res.body.errors[0].code).toBe('NOT_FOUND');
      }
    }
    const rows = await t.db.db
      .selectFrom('notifications')
      .select(['id', 'is_read'])
      .where('org_id', '=', owner.orgId)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: inMain.id, is_read: 0 },
      { id: inBranch.id, is_read: 0 },
    ]);
  });

  it('lets owners post to any store of the organisation; staff only to their active store (403)', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const staff = await createStaff(t, owner);
    const manager = await createStaff(t, owner, { role: 'manager' });
    for (const s of [staff, manager]) {
      const res = await post(s, { store_id: branch.id });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('FORBIDDEN');
      expect((await created(s, { store_id: owner.storeId })).store_id).toBe(owner.storeId);
    }
    expect((await created(staff)).store_id).toBe(owner.storeId);
    expect(await unread(staff)).toBe(3);
    expect((await t.db.db.selectFrom('notifications').select('id').where('store_id', '=', branch.id).execute()).length).toBe(0);
  });

  // Another organisation's notification by id (read, delete): test/api/access-rules.test.ts.
  it("shows another organisation nothing of this one's notifications, and answers 404 for its store", async () => {
    const owner = await registerOwner(t);
    const stranger = await registerOwner(t);
    await created(owner);
    expect((await list(stranger)).data).toEqual({ notifications: [], unread_count: 0 });
    expect(await unread(stranger)).toBe(0);
    expect((await readAll(stranger)).body.data.updated).toBe(0);
    for (const storeId of [owner.storeId, randomUUID()]) {
      const res = await post(stranger, { store_id: storeId });
      expect(res.status, storeId).toBe(404);
    }
    expect(await unread(owner)).toBe(1);
  });

  it('answers bad input with 400 naming the field and writes nothing', async () => {
    const owner = await registerOwner(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ category: 'gossip' }, 'category'],
      [{ category: undefined }, 'category'],
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ store_id: 'not-a-uuid' }, 'store_id'],
      [{ body: 42 }, 'body'],
      [{ link: '' }, 'link'],
    ];
    for (const [body, field] of cases) {
      const res = await post(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    for (const [query, field] of [
      ['?category=gossip', 'category'],
      ['?unread=maybe', 'unread'],
      ['?page=0', 'page'],
    ]) {
      const res = await t.request('GET', `/notifications${query}`, { token: owner.token });
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].field).toBe(field);
    }
    const badId = await read(owner, 'nope');
    expect(badId.status).toBe(400);
    expect(badId.body.errors[0].field).toBe('id');
    expect(await unread(owner)).toBe(0);
    expect(await t.db.db.selectFrom('notifications').select('id').where('org_id', '=', owner.orgId).execute()).toEqual([]);
  });
});
