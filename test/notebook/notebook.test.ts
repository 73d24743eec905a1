import { Envelope, NOTE_TEXT, Note, NoteList, PageMeta, PullResponse, PushResponse, BootstrapResponse, newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addStore, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { DIALECT } from '../setup/test-db.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

describe('notebook', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  type Caller = { token: string };
  const create = async (s: Caller, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/notebook', { token: s.token, body });
    expect(res.status, res.text).toBe(200);
    return Envelope(Note).parse(res.body).data;
  };
  const get = (s: Caller, id: string) => t.request('GET', `/notebook/${id}`, { token: s.token });
  const patch = (s: Caller, id: string, body: Record<string, unknown>) => t.request('PATCH', `/notebook/${id}`, { token: s.token, body });
  const list = async (s: Caller, query = '') => {
    const res = await t.request('GET', `/notebook${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    const { data, meta } = Envelope(NoteList, PageMeta).parse(res.body);
    return { ...data, meta };
  };
  const titles = async (s: Caller, query = '') => (await list(s, query)).items.map((n) => n.title);
  const switchTo = async (s: Session, storeId: string): Promise<Caller> => {
    const res = await t.request('POST', '/accounts/switch-store', { token: s.token, body: { store_id: storeId } });
    expect(res.status, res.text).toBe(200);
    return { token: res.body.data.tokens.access_token };
  };

  const seqs = new Map<string, number>();
  const device = async (s: Caller) => {
    const res = await t.request('POST', '/sync/devices', { token: s.token, body: { device_id: newId(), name: 'Till' } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.device_id as string;
  };
  const noteUpdate = (deviceId: string, payload: Record<string, unknown>) => {
    const seq = (seqs.get(deviceId) ?? 0) + 1;
    seqs.set(deviceId, seq);
    return { id: newId(), seq, type: 'note.update', created_at: new Date(t.clock.now() - 60_000).toISOString(), payload };
  };
  const push = async (s: Caller, deviceId: string, mutations: unknown[]) => {
    const res = await t.request('POST', '/sync/push', { token: s.token, body: { device_id: deviceId, mutations } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const pullAll = async (s: Caller, cursor?: string) => {
    const changes: PullResponse['changes'] = [];
    for (;;) {
      const res = await t.request('GET', `/sync/pull${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { token: s.token });
      expect(res.status, res.text).toBe(200);
      const page = Envelope(PullResponse).parse(res.body).data;
      changes.push(...page.changes);
      cursor = page.cursor;
      if (!page.has_more) return { changes, cursor };
    }
  };
  /** What a till holds of the note after a pull: its yjs state. */
  const tillDoc = (state: string) => {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, unb64(state));
    return doc;
  };

  it('creates, reads, edits and deletes a note of the active store', async () => {
    const owner = await registerOwner(t);
    const note = await create(owner, {
      title: 'Supplier calls',
      content: 'Call Azam on Monday',
      tags: ['Suppliers', 'todo', 'suppliers', ' todo '],
    });
    const now = new Date(t.clock.now()).toISOString();
    expect(note).toEqual({
      id: expect.any(String),
      title: 'Supplier calls',
      content: 'Call Azam on Monday',
      tags: ['Suppliers', 'todo'],
      created_at: now,
      updated_at: now,
    });
    expect(Envelope(Note).parse((await get(owner, note.id)).body).data).toEqual(note);

    t.clock.advance(60_000);
    const edited = await patch(owner, note.id, { title: 'Calls', content: 'Call Azam on Tuesday', tags: ['calls'] });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toEqual({
      ...note,
      title: 'Calls',
      content: 'Call Azam on Tuesday',
      tags: ['calls'],
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    const unchanged = await patch(owner, note.id, {});
    expect(unchanged.body.data).toEqual(edited.body.data);

    const removed = await t.request('DELETE', `/notebook/${note.id}`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual(edited.body.data);
    expect((await get(owner, note.id)).status).toBe(404);
    expect((await patch(owner, note.id, { title: 'Back' })).status).toBe(404);
    expect((await t.request('DELETE', `/notebook/${note.id}`, { token: owner.token })).status).toBe(404);
    expect((await list(owner)).count).toBe(0);
  });

  it('refuses bad input and keeps notes to their store and organisation', async () => {
    const owner = await registerOwner(t);
    expect((await t.request('POST', '/notebook', { token: owner.token, body: { content: 'no title' } })).status).toBe(400);
    expect((await t.request('POST', '/notebook', { token: owner.token, body: { title: 'x', tags: ['a'.repeat(41)] } })).status).toBe(400);
    const note = await create(owner, { title: 'Main store note' });
    expect(note).toMatchObject({ content: '', tags: [] });

    // Another organisation's owner reading, changing or deleting it by id, and no token: test/api/access-rules.test.ts.
    const branch = await addStore(t, owner.orgId);
    const atBranch = await switchTo(owner, branch.id);
    expect((await get(atBranch, note.id)).status).toBe(404);
    expect((await list(atBranch)).items).toEqual([]);
    await create(atBranch, { title: 'Branch note' });
    expect(await titles(owner)).toEqual(['Main store note']);
    expect(await titles(atBranch)).toEqual(['Branch note']);
  });

  it('filters by tag and text and orders by date or title', async () => {
    const owner = await registerOwner(t);
    await create(owner, { title: 'banana prices', content: 'Wholesale at Kariakoo', tags: ['Market'] });
    t.clock.advance(1000);
    await create(owner, { title: 'Apple order', content: 'Ask Juma about 100% juice', tags: ['market', 'orders'] });
    t.clock.advance(1000);
    await create(owner, { title: 'Cleaning rota', content: 'Neema on Fridays', tags: ['staff'] });

    expect(await titles(owner)).toEqual(['Cleaning rota', 'Apple order', 'banana prices']);
    expect(await titles(owner, '?ordering=-date')).toEqual(['Cleaning rota', 'Apple order', 'banana prices']);
    expect(await titles(owner, '?ordering=date')).toEqual(['banana prices', 'Apple order', 'Cleaning rota']);
    expect(await titles(owner, '?ordering=title')).toEqual(['Apple order', 'banana prices', 'Cleaning rota']);
    expect((await t.request('GET', '/notebook?ordering=size', { token: owner.token })).status).toBe(400);

    const market = await list(owner, '?tag=MARKET&ordering=date');
    expect(market.items.map((n) => n.title)).toEqual(['banana prices', 'Apple order']);
    expect(market.count).toBe(2);
    expect(await titles(owner, '?tag=orders')).toEqual(['Apple order']);
    expect(await titles(owner, '?tag=nothing')).toEqual([]);
    expect(await titles(owner, '?search=KARIAKOO')).toEqual(['banana prices']);
    expect(await titles(owner, '?search=rota')).toEqual(['Cleaning rota']);
    expect(await titles(owner, '?search=100%25')).toEqual(['Apple order']);
    expect(await titles(owner, '?search=on&tag=market')).toEqual([]);
    expect(await titles(owner, '?search=a&tag=market&ordering=title')).toEqual(['Apple order', 'banana prices']);

    const paged = await list(owner, '?page_size=2&page=2&ordering=title');
    expect(paged.items.map((n) => n.title)).toEqual(['Cleaning rota']);
    expect(paged.count).toBe(3);
    expect(paged.meta).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });

    // Retagging moves the note between tag filters.
    const apple = (await list(owner, '?tag=orders')).items[0]!;
    await patch(owner, apple.id, { tags: ['Done'] });
    expect(await titles(owner, '?tag=market')).toEqual(['banana prices']);
    expect(await titles(owner, '?tag=done')).toEqual(['Apple order']);
  });

  it('merges two tills’ offline edits and a web edit of one note, whatever the order', async () => {
    const owner = await registerOwner(t);
    const note = await create(owner, { title: 'Shopping', content: 'Milk 2\nSugar 1\nRice 5', tags: ['list'] });
    const { changes, cursor } = await pullAll(owner);
    const held = changes.find((c) => c.entity === 'note' && c.id === note.id)!;
    expect(held).toMatchObject({ op: 'upsert', data: { ...note, store_id: owner.storeId, ydoc: expect.any(String) } });
    const start = held.data!.ydoc as string;
    expect(tillDoc(start).getText(NOTE_TEXT).toString()).toBe('Milk 2\nSugar 1\nRice 5');

    // Two tills, offline, each edit a different part of what they pulled.
    const a = tillDoc(start);
    const b = tillDoc(start);
    const base = Y.encodeStateVector(a);
    a.getText(NOTE_TEXT).insert(0, 'Shopping:\n');
    const rice = b.getText(NOTE_TEXT).toString().indexOf('5');
    b.getText(NOTE_TEXT).delete(rice, 1);
    b.getText(NOTE_TEXT).insert(rice, '10');
    const updateA = b64(Y.encodeStateAsUpdate(a, base));
    const updateB = b64(Y.encodeStateAsUpdate(b, base));

    // Meanwhile the owner edits the middle on the web.
    const web = await patch(owner, note.id, { content: 'Milk 2\nSugar 3\nRice 5' });
    expect(web.body.data.content).toBe('Milk 2\nSugar 3\nRice 5');

    // Both tills come back at the same moment.
    const [deviceA, deviceB] = [await device(owner), await device(owner)];
    const mutationA = noteUpdate(deviceA, { note_id: note.id, update: updateA });
    const [resA, resB] = await Promise.all([
      push(owner, deviceA, [mutationA]),
      push(owner, deviceB, [noteUpdate(deviceB, { note_id: note.id, update: updateB })]),
    ]);
    expect(resA.results[0]).toMatchObject({ status: 'applied', result: { note_id: note.id, created: false } });
    expect(resB.results[0]).toMatchObject({ status: 'applied', result: { note_id: note.id, created: false } });

    const merged = 'Shopping:\nMilk 2\nSugar 3\nRice 10';
    expect(Envelope(Note).parse((await get(owner, note.id)).body).data).toMatchObject({
      content: merged,
      title: 'Shopping',
      tags: ['list'],
    });
    expect(await titles(owner, '?search=rice 10')).toEqual(['Shopping']);

    // Tills pull the merged state and converge on the same text.
    const after = await pullAll(owner, cursor);
    const latest = after.changes.filter((c) => c.entity === 'note' && c.id === note.id).at(-1)!;
    expect(latest.data).toMatchObject({ content: merged });
    for (const doc of [a, b]) {
      Y.applyUpdate(doc, unb64(latest.data!.ydoc as string));
      expect(doc.getText(NOTE_TEXT).toString()).toBe(merged);
    }

    // A web edit after the merge applies only its difference to the merged text.
    const again = await patch(owner, note.id, { content: `${merged}\nSalt 1` });
    expect(again.body.data.content).toBe(`${merged}\nSalt 1`);
    // Re-pushing the same batch changes nothing.
    const replay = await push(owner, deviceA, [mutationA]);
    expect(replay.results[0]!.status).toBe('duplicate');
    expect((await get(owner, note.id)).body.data.content).toBe(`${merged}\nSalt 1`);
  });

  it('lets a till create a note offline and rename it later', async () => {
    const owner = await registerOwner(t);
    const deviceId = await device(owner);
    const id = newId();
    const doc = new Y.Doc();
    doc.getText(NOTE_TEXT).insert(0, 'Fridge man comes Thursday');
    const res = await push(owner, deviceId, [
      noteUpdate(deviceId, { note_id: id, update: b64(Y.encodeStateAsUpdate(doc)), tags: ['Repairs'] }),
    ]);
    expect(res.results[0]).toMatchObject({ status: 'applied', result: { note_id: id, created: true } });
    expect(Envelope(Note).parse((await get(owner, id)).body).data).toMatchObject({
      id,
      title: 'Untitled note',
      content: 'Fridge man comes Thursday',
      tags: ['Repairs'],
    });

    const renamed = await push(owner, deviceId, [noteUpdate(deviceId, { note_id: id, update: 'AAA=', title: 'Fridge' })]);
    expect(renamed.results[0]).toMatchObject({ status: 'applied', result: { created: false } });
    expect((await get(owner, id)).body.data).toMatchObject({ title: 'Fridge', content: 'Fridge man comes Thursday', tags: ['Repairs'] });
    expect(await titles(owner, '?tag=repairs')).toEqual(['Fridge']);
  });

  it('rejects a till’s edit of a deleted note, another store’s note, or bytes that are not a yjs update', async () => {
    const owner = await registerOwner(t);
    const deviceId = await device(owner);
    const gone = await create(owner, { title: 'Old', content: 'old text' });
    await t.request('DELETE', `/notebook/${gone.id}`, { token: owner.token });
    const branch = await addStore(t, owner.orgId);
    const elsewhere = await create(await switchTo(owner, branch.id), { title: 'Branch only' });
    const stranger = await registerOwner(t);
    const theirs = await create(stranger, { title: 'Theirs' });
    const doc = new Y.Doc();
    doc.getText(NOTE_TEXT).insert(0, 'hello');
    const update = b64(Y.encodeStateAsUpdate(doc));
    const res = await push(owner, deviceId, [
      noteUpdate(deviceId, { note_id: gone.id, update }),
      noteUpdate(deviceId, { note_id: elsewhere.id, update }),
      noteUpdate(deviceId, { note_id: theirs.id, update }),
      noteUpdate(deviceId, { note_id: newId(), update: 'not base64!' }),
      noteUpdate(deviceId, { note_id: newId(), update: b64(new Uint8Array([9, 9, 9, 9, 9, 9])) }),
    ]);
    // A note id is its organisation's (issue 36): on PostgreSQL, keyed (org_id, id), the stranger's id
    // makes the owner a note of their own; SQLite, keyed by the id alone, refuses it. Either way the
    // stranger's note is untouched.
    const postgres = DIALECT === 'postgres';
    expect(res.results.map((r) => [r.status, r.error?.code])).toEqual([
      ['rejected', 'INVALID_STATE'],
      ['rejected', 'NOT_FOUND'],
      postgres ? ['applied', undefined] : ['rejected', 'CONFLICT'],
      ['rejected', 'VALIDATION_ERROR'],
      ['rejected', 'VALIDATION_ERROR'],
    ]);
    expect((await get(owner, gone.id)).status).toBe(404);
    expect((await get(stranger, theirs.id)).body.data).toMatchObject({ title: 'Theirs', content: '' });
    expect((await list(owner)).count).toBe(postgres ? 1 : 0);
  });

  it('tells tills of every note write: pull and bootstrap hold the store’s notes, deletes arrive as deletes', async () => {
    const owner = await registerOwner(t);
    const { cursor } = await pullAll(owner);
    const note = await create(owner, { title: 'Float', content: 'TZS 50,000 in the drawer' });
    const branch = await addStore(t, owner.orgId);
    await create(await switchTo(owner, branch.id), { title: 'Not for this till' });
    await patch(owner, note.id, { content: 'TZS 40,000 in the drawer' });

    const first = await pullAll(owner, cursor);
    const notes = first.changes.filter((c) => c.entity === 'note');
    expect(notes.map((c) => [c.op, c.id])).toEqual([['upsert', note.id]]);
    expect(notes[0]!.data).toMatchObject({ id: note.id, title: 'Float', content: 'TZS 40,000 in the drawer', store_id: owner.storeId });
    expect(
      tillDoc(notes[0]!.data!.ydoc as string)
        .getText(NOTE_TEXT)
        .toString(),
    ).toBe('TZS 40,000 in the drawer');

    const boot = await t.request('GET', '/sync/bootstrap', { token: owner.token });
    expect(boot.status, boot.text).toBe(200);
    const rows = Envelope(BootstrapResponse)
      .parse(boot.body)
      .data.rows.filter((r) => r.entity === 'note');
    expect(rows.map((r) => r.id)).toEqual([note.id]);

    await t.request('DELETE', `/notebook/${note.id}`, { token: owner.token });
    const second = await pullAll(owner, first.cursor);
    expect(second.changes.filter((c) => c.entity === 'note').map((c) => [c.op, c.id, c.data])).toEqual([['delete', note.id, null]]);
  });
});
