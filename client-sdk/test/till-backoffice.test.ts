/** Expenses and notes made on a till with the network down reach the server once, and notes merge with edits made elsewhere. */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, seedShop, signIn, tillServer, until } from './harness.js';

describe('till: expenses and notes offline', () => {
  const server = tillServer();
  let h: Harness;
  beforeAll(() => void (h = server.h));
  beforeEach(() => {
    h.net.offline = false;
    h.net.loseReplyTo = null;
  });
  const till = (name: string) => server.till({ deviceName: name });

  it('an expense recorded offline is on the server exactly once after a lost reply and a re-push', async () => {
    const shop = await seedShop(h);
    const t = await till('Counter 1');
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const e = await t.recordExpense({ title: 'Boda boda to Kariakoo', category: 'Transport', amount: 3500.5, payment_method: 'M-Pesa' });
    await expect(t.recordExpense({ title: 'x', category: 'Fun' as never, amount: 1 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'category',
    });
    await until(() => t.status().pending === 1, 2000, 'the expense queued');
    h.net.offline = false;
    h.net.loseReplyTo = '/sync/push';
    await expect(t.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    await t.syncNow();
    expect(t.status()).toMatchObject({ pending: 0, rejected: 0 });
    const list = await h.t.request('GET', '/expenses', { token: shop.owner.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: e.id,
        title: 'Boda boda to Kariakoo',
        category: 'Transport',
        amount: 3500.5,
        payment_method: 'M-Pesa',
      }),
    ]);
  });

  it('two tills and the web edit one note at once: every edit survives, on the server and on both tills', async () => {
    const shop = await seedShop(h);
    const a = await till('Counter A');
    const b = await till('Counter B');
    await signIn(a, shop);
    await signIn(b, shop);
    await a.syncNow();
    const note = await a.createNote({ title: 'Shopping', content: 'Milk\nSugar\nRice', tags: ['orders'] });
    await a.syncNow();
    await b.syncNow();
    expect(await b.note(note.id)).toMatchObject({ title: 'Shopping', content: 'Milk\nSugar\nRice', tags: ['orders'] });

    // All three edit different lines of the same text while the tills are offline.
    h.net.offline = true;
    await a.updateNote(note.id, { content: 'Milk 2\nSugar\nRice' });
    await b.updateNote(note.id, { content: 'Milk\nSugar\nRice 10', tags: ['orders', 'weekly'] });
    const web = await h.t.request('PATCH', `/notebook/${note.id}`, { token: shop.owner.token, body: { content: 'Milk\nSugar 3\nRice' } });
    expect(web.status, web.text).toBe(200);
    expect(await a.note(note.id)).toMatchObject({ content: 'Milk 2\nSugar\nRice' });
    h.net.offline = false;
    await a.syncNow();
    await b.syncNow();
    await a.syncNow();

    const merged = 'Milk 2\nSugar 3\nRice 10';
    const server = await h.t.request('GET', `/notebook/${note.id}`, { token: shop.owner.token });
    expect(server.body.data).toMatchObject({ title: 'Shopping', content: merged, tags: ['orders', 'weekly'] });
    expect(await a.note(note.id)).toMatchObject({ content: merged, tags: ['orders', 'weekly'] });
    expect(await b.note(note.id)).toMatchObject({ content: merged });
    expect((await a.notes({ tag: 'weekly' })).map((n) => n.id)).toEqual([note.id]);
    await expect(a.updateNote('00000000-0000-7000-8000-000000000000', { content: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a refused mutation can be dismissed once dealt with; pending ones cannot', async () => {
    const shop = await seedShop(h);
    const t = await till('Counter 9');
    await signIn(t, shop);
    await t.syncNow();
    // The owner deletes the note while the till, offline, edits it: the server refuses the edit.
    const note = await t.createNote({ title: 'Old', content: 'gone soon' });
    await t.syncNow();
    await h.t.request('DELETE', `/notebook/${note.id}`, { token: shop.owner.token });
    h.net.offline = true;
    await t.updateNote(note.id, { content: 'too late' });
    const pending = await t.recordExpense({ title: 'Tea', category: 'Other', amount: 500 });
    void pending;
    h.net.offline = false;
    await t.syncNow();
    const [refused] = await t.rejected();
    expect(refused).toMatchObject({ type: 'note.update', error: { code: 'INVALID_STATE' } });
    expect(t.status().rejected).toBe(1);
    expect(await t.dismissRejected(refused!.id)).toBe(true);
    expect(await t.dismissRejected(refused!.id)).toBe(false);
    expect(t.status().rejected).toBe(0);
    expect(await t.rejected()).toEqual([]);
    expect(await t.note(note.id)).toBeNull();
  });
});
