import { Envelope, PullResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChangeLog } from '../../server/src/sync/pull/services/prune.js';
import { iso } from '../../server/src/lib/clock.js';
import { STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';
import { addStore, mfaAdminToken, registerOwner, type Session } from '../setup/factories.js';
import { CLOSED_TRA, fiscaliseStore } from '../setup/fiscal-device.js';
import { newMedicine, PRESCRIPTION, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;

describe('GET /sync/pull', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const pull = async (s: { token: string }, cursor?: string, limit?: number) => {
    const qs = new URLSearchParams();
    if (cursor !== undefined) qs.set('cursor', cursor);
    if (limit !== undefined) qs.set('limit', String(limit));
    const res = await t.request('GET', `/sync/pull?${qs}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(PullResponse).parse(res.body).data;
  };
  /** Pull until has_more is false: every change and the final cursor. */
  const pullAll = async (s: { token: string }, cursor?: string, limit?: number) => {
    const changes: PullResponse['changes'] = [];
    for (;;) {
      const page = await pull(s, cursor, limit);
      expect(page.reset_required).toBe(false);
      changes.push(...page.changes);
      cursor = page.cursor;
      if (!page.has_more) return { changes, cursor };
    }
  };
  const post = async (s: { token: string }, path: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', path, { token: s.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data as { id: string };
  };
  const product = (s: { token: string }, body: Record<string, unknown> = {}) =>
    post(s, '/inventory/products', { name: `Item ${Math.random()}`, selling_price: 1000, ...body });
  const brief = (changes: PullResponse['changes']) => changes.map((c) => [c.entity, c.op, c.id]);

  it('delivers exactly the changes after the cursor for category, product, customer and sale writes', async () => {
    const owner = await registerOwner(t, {
      shop: { name: 'Duka la Pull', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    const first = await pullAll(owner);
    expect(brief(first.changes).sort()).toEqual([
      ['organisation', 'upsert', owner.orgId],
      ['store', 'upsert', owner.storeId],
    ]);
    expect(first.changes.find((c) => c.entity === 'organisation')!.data).toMatchObject({ name: 'Duka la Pull', sms_api_key_set: false });
    expect(JSON.stringify(first.changes)).not.toMatch(/_enc|password|secret(?!_set)/);

    const category = await post(owner, '/inventory/categories', { name: 'Vinywaji' });
    let step = await pullAll(owner, first.cursor);
    expect(step.changes).toEqual([
      {
        entity: 'category',
        op: 'upsert',
        id: category.id,
        version: expect.any(Number),
        data: expect.objectContaining({ name: 'Vinywaji', product_count: 0 }),
      },
    ]);
    expect(step.changes[0]!.version).toBeGreaterThan(Math.max(...first.changes.map((c) => c.version)));

    const soda = await product(owner, { name: 'Soda 500ml', category_id: category.id, selling_price: 1200, stock: 24 });
    step = await pullAll(owner, step.cursor);
    expect(brief(step.changes).sort()).toEqual([
      ['product', 'upsert', soda.id],
      ['stock', 'upsert', soda.id],
    ]);
    expect(step.changes.find((c) => c.entity === 'product')!.data).toMatchObject({
      name: 'Soda 500ml',
      selling_price: 1200,
      stock: 24,
      category_id: category.id,
    });
    expect(step.changes.find((c) => c.entity === 'stock')!.data).toMatchObject({ product_id: soda.id, store_id: owner.storeId, stock: 24 });

    const customer = await post(owner, '/customers', { name: 'Bi Mwanaisha', phone: '0754000111' });
    step = await pullAll(owner, step.cursor);
    expect(step.changes).toEqual([
      {
        entity: 'customer',
        op: 'upsert',
        id: customer.id,
        version: expect.any(Number),
        data: expect.objectContaining({ name: 'Bi Mwanaisha', outstanding_balance: 0 }),
      },
    ]);

    const sale = await post(owner, '/pos/sale', { lines: [{ product_id: soda.id, qty: 2 }], payment_method: 'Cash' });
    step = await pullAll(owner, step.cursor);
    expect(brief(step.changes).sort()).toEqual([
      ['stock', 'upsert', soda.id],
      ['transaction', 'upsert', sale.id],
    ]);
    expect(step.changes.find((c) => c.entity === 'stock')!.data).toMatchObject({ stock: 22 });
    expect(step.changes.find((c) => c.entity === 'transaction')!.data).toMatchObject({
      total: 2400,
      status: 'paid',
      lines: [expect.objectContaining({ product_id: soda.id, qty: 2 })],
    });

    // Nothing new: the same position, nothing to send.
    const idle = await pull(owner, step.cursor);
    expect(idle).toEqual({
      changes: [],
      cursor: step.cursor,
      has_more: false,
      reset_required: false,
      addo_list_version: 0,
      server_time: iso(t.clock.now()),
    });
  });

  it('pages with has_more, loses nothing written between pages, and sends a row changed twice once', async () => {
    const owner = await registerOwner(t);
    const { cursor: start } = await pullAll(owner);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await product(owner, { name: `Bidhaa ${i}`, stock: 5 })).id);

    const seen: PullResponse['changes'] = [];
    let page = await pull(owner, start, 3);
    expect(page.has_more).toBe(true);
    expect(page.changes.length).toBeLessThanOrEqual(3);
    seen.push(...page.changes);
    // A write lands between two pages of the same pull.
    made.push((await product(owner, { name: 'Bidhaa mpya', stock: 1 })).id);
    let cursor = page.cursor;
    while (page.has_more) {
      page = await pull(owner, cursor, 3);
      seen.push(...page.changes);
      cursor = page.cursor;
    }
    const versions = seen.map((c) => c.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(seen.filter((c) => c.entity === 'product').map((c) => c.id))).toEqual(new Set(made));
    expect(new Set(seen.filter((c) => c.entity === 'stock').map((c) => c.id))).toEqual(new Set(made));

    await t.request('PATCH', `/inventory/products/${made[0]}`, { token: owner.token, body: { selling_price: 1100 } });
    await t.request('PATCH', `/inventory/products/${made[0]}`, { token: owner.token, body: { selling_price: 1300 } });
    const twice = await pullAll(owner, cursor);
    expect(brief(twice.changes)).toEqual([['product', 'upsert', made[0]]]);
    expect(twice.changes[0]!.data).toMatchObject({ selling_price: 1300 });
  });

  it('loses nothing while writes commit concurrently with the pulls', async () => {
    const owner = await registerOwner(t);
    let { cursor } = await pullAll(owner);
    const seen = new Set<string>();
    let writing = true;
    const writes = Promise.all(Array.from({ length: 12 }, (_, i) => product(owner, { name: `Sambamba ${i}`, stock: 2 }))).finally(
      () => (writing = false),
    );
    while (writing) {
      // A breath between pulls: interleaved with the writes, without spending the user's rate limit.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const page = await pull(owner, cursor, 2);
      for (const c of page.changes) if (c.entity === 'product') seen.add(c.id);
      cursor = page.cursor;
    }
    const made = await writes;
    for (const c of (await pullAll(owner, cursor, 2)).changes) if (c.entity === 'product') seen.add(c.id);
    expect(seen).toEqual(new Set(made.map((p) => p.id)));
  });

  it('sends a credit tab that leaves the till’s set (settled) as a delete, with the customer’s new balance', async () => {
    const owner = await registerOwner(t);
    const rice = await product(owner, { name: 'Mchele', stock: 5 });
    const customer = await post(owner, '/customers', { name: 'Mzee Juma' });
    await post(owner, '/pos/sale', { lines: [{ product_id: rice.id, qty: 1 }], payment_method: 'Credit', customer_id: customer.id });
    const before = await pullAll(owner);
    const tab = before.changes.find((c) => c.entity === 'credit_tab')!;
    expect(tab.data).toMatchObject({ balance: 1000, status: 'open', customer_id: customer.id });
    expect(before.changes.find((c) => c.entity === 'customer')!.data).toMatchObject({ outstanding_balance: 1000 });

    await post(owner, `/credits/customers/${customer.id}/payments`, { amount: 1000, method: 'Cash' });
    const after = await pullAll(owner, before.cursor);
    expect(brief(after.changes).sort()).toEqual([
      ['credit_tab', 'delete', tab.id],
      ['customer', 'upsert', customer.id],
    ]);
    expect(after.changes.find((c) => c.entity === 'customer')!.data).toMatchObject({ outstanding_balance: 0 });
  });

  it('delivers deletes: a removed product and category arrive as op delete with no data', async () => {
    const owner = await registerOwner(t);
    const category = await post(owner, '/inventory/categories', { name: 'Ya kufuta' });
    const doomed = await product(owner, { name: 'Sabuni ya zamani' });
    const { cursor } = await pullAll(owner);
    expect((await t.request('DELETE', `/inventory/products/${doomed.id}`, { token: owner.token })).status).toBe(204);
    expect((await t.request('DELETE', `/inventory/categories/${category.id}`, { token: owner.token })).status).toBe(204);
    const after = await pullAll(owner, cursor);
    expect(after.changes).toEqual([
      { entity: 'product', op: 'delete', id: doomed.id, version: expect.any(Number), data: null },
      { entity: 'category', op: 'delete', id: category.id, version: expect.any(Number), data: null },
    ]);

    // Created and removed between two pulls: only the delete.
    const brief2 = await product(owner, { name: 'Kwa muda' });
    await t.request('DELETE', `/inventory/products/${brief2.id}`, { token: owner.token });
    expect(brief((await pullAll(owner, after.cursor)).changes)).toEqual([['product', 'delete', brief2.id]]);
  });

  it("never shows a till another store's stock, transactions or store row", async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Tawi la Mbezi');
    const switched = await t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: branch.id } });
    const branchTill = { token: switched.body.data.tokens.access_token as string };
    const shared = await product(owner, { name: 'Unga 2kg', stock: 10 });
    const mainStart = (await pullAll(owner)).cursor;
    const branchStart = (await pullAll(branchTill)).cursor;

    await t.request('POST', `/inventory/products/${shared.id}/adjust`, {
      token: branchTill.token,
      body: { qty_change: 7, reason: 'restock' },
    });
    const sale = await post(branchTill, '/pos/sale', { lines: [{ product_id: shared.id, qty: 2 }], payment_method: 'Cash' });

    const main = await pullAll(owner, mainStart);
    expect(main.changes).toEqual([]);
    // The branch's rows never leave the database for the main till, yet its cursor moves past them
    // (issue 53): pulled again, even with a page of one, nothing; then its own store's next change.
    expect(main.cursor).not.toBe(mainStart);
    expect((await pull(owner, main.cursor, 1)).changes).toEqual([]);
    const own = await product(owner, { name: 'Sukari 1kg', stock: 4 });
    const next = await pullAll(owner, main.cursor, 1);
    expect(next.changes.map((c) => [c.entity, c.id]).sort()).toEqual([
      ['product', own.id],
      ['stock', own.id],
    ]);
    const there = await pullAll(branchTill, branchStart);
    expect(there.changes.filter((c) => c.entity === 'transaction').map((c) => c.id)).toEqual([sale.id]);
    expect(there.changes.find((c) => c.entity === 'stock')!.data).toMatchObject({ store_id: branch.id, stock: 5 });
    // The main till's view of the product is its own store's stock.
    const all = await pullAll(owner);
    expect(all.changes.some((c) => c.id === branch.id || c.id === sale.id)).toBe(false);
    expect(all.changes.find((c) => c.entity === 'product' && c.id === shared.id)!.data).toMatchObject({ stock: 10 });
  });

  it("answers 400 for another organisation's cursor or a malformed one, revealing nothing", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    await product(other, { name: 'Siri ya jirani' });
    const theirs = (await pullAll(other)).cursor;

    const answers = [];
    for (const cursor of [theirs, 'not-a-cursor', Buffer.from('{"o":1}').toString('base64url'), '%%%']) {
      const res = await t.request('GET', `/sync/pull?cursor=${encodeURIComponent(cursor)}`, { token: owner.token });
      expect(res.status, cursor).toBe(400);
      expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'cursor', message: expect.any(String) }]);
      expect(res.text).not.toContain(other.orgId);
      expect(res.text).not.toContain('Siri');
      answers.push([res.body.message, res.body.errors]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect((await t.request('GET', '/sync/pull?limit=0', { token: owner.token })).status).toBe(400);
  });

  it('answers reset_required for a cursor older than the change log keeps, and a bootstrap cursor works again', async () => {
    const owner = await registerOwner(t);
    const old = (await pullAll(owner)).cursor;
    await product(owner, { name: 'Chumvi' });
    expect((await pull(owner, old)).changes).toHaveLength(1);

    t.clock.advance(t.config.CHANGE_LOG_RETENTION_DAYS * DAY + DAY);
    const login = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
    const till = { token: login.body.data.access_token as string };
    const fresh = await product(till, { name: 'Pilipili' });
    const pruned = await pruneChangeLog(t.deps);
    expect(pruned.deleted).toBeGreaterThan(0);

    for (const cursor of [old, undefined]) {
      const res = await pull(till, cursor);
      expect(res).toEqual({
        changes: [],
        cursor: expect.any(String),
        has_more: false,
        reset_required: true,
        addo_list_version: 0,
        server_time: iso(t.clock.now()),
      });
    }
    const left = await t.db.db.selectFrom('change_log').select('entity_id').where('org_id', '=', owner.orgId).execute();
    expect(left.map((r) => r.entity_id)).toEqual([fresh.id]);

    const boot = await t.request('GET', '/sync/bootstrap?limit=1000', { token: till.token });
    expect(boot.body.data.page_token).toBeNull();
    await product(till, { name: 'Tangawizi' });
    const resumed = await pull(till, boot.body.data.cursor);
    expect(resumed.reset_required).toBe(false);
    expect(resumed.changes.map((c) => c.data?.name)).toEqual(['Tangawizi']);
  });

  // Last in the file: the ADDO list is platform data, so its version is shared by every test here.
  it("answers the ADDO list's version on every page, moving with each admin change and with nothing in the change log", async () => {
    const owner = await registerOwner(t);
    const { cursor } = await pullAll(owner);
    expect((await pull(owner, cursor)).addo_list_version).toBe(0);

    const admin = await mfaAdminToken(t);
    const add = (body: Record<string, unknown>) => t.request('POST', '/admin/pharmacy/addo-list', { token: admin.token, body });
    const paracetamol = await add({ generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' });
    expect(paracetamol.status, paracetamol.text).toBe(201);
    expect((await add({ generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule' })).status).toBe(201);
    expect((await t.request('DELETE', `/admin/pharmacy/addo-list/${paracetamol.body.data.id}`, { token: admin.token })).status).toBe(204);

    const after = await pull(owner, cursor);
    expect(after).toEqual({
      changes: [],
      cursor,
      has_more: false,
      reset_required: false,
      addo_list_version: 3,
      server_time: iso(t.clock.now()),
    });
    // A paged pull answers it on every page.
    await product(owner, { name: 'Panadol' });
    await product(owner, { name: 'Amoxil' });
    const first = await pull(owner, cursor, 1);
    expect([first.has_more, first.addo_list_version]).toEqual([true, 3]);
    expect((await pull(owner, first.cursor, 1)).addo_list_version).toBe(3);
  });

  it("reads a sale's lots and fiscal receipt only for sales that have them: a plain shop's pull of a sale runs five statements", async () => {
    const counted = await createTestApp({ config: { COUNT_STATEMENTS: true, TRA_TEST_URL: CLOSED_TRA } });
    try {
      const [plain, fiscal, pharmacy] = [await registerOwner(counted), await registerOwner(counted), await pharmacyOwner(counted)];
      await fiscaliseStore(counted, fiscal);
      const amoxil = await newMedicine(counted, pharmacy, { name: 'Amoxil 250mg', generic_name: 'Amoxicillin', strength: '250 mg' });
      await receiveLots(counted, pharmacy, [
        { product_id: amoxil.id, lot_number: 'A-1', expiry_date: '2027-03-31', qty: 3 },
        { product_id: amoxil.id, lot_number: 'A-2', expiry_date: '2027-09-30', qty: 20 },
      ]);
      const sellAndPull = async (s: Session, productId: string | undefined, extra: Record<string, unknown> = {}) => {
        const id =
          productId ??
          (
            await counted.request('POST', '/inventory/products', {
              token: s.token,
              body: { name: 'Sukari 1kg', selling_price: 3500, stock: 100 },
            })
          ).body.data.id;
        let cursor: string | undefined;
        for (let more = true; more; ) {
          const page = (await counted.request('GET', `/sync/pull?${cursor ? `cursor=${cursor}` : ''}`, { token: s.token })).body.data;
          [cursor, more] = [page.cursor, page.has_more];
        }
        const sold = await counted.request('POST', '/pos/sale', {
          token: s.token,
          body: { lines: [{ product_id: id, qty: 5 }], payment_method: 'Cash', ...extra },
        });
        expect(sold.status, sold.text).toBe(201);
        await counted.deps.fiscal.idle();
        const res = await counted.request('GET', `/sync/pull?cursor=${cursor}`, { token: s.token });
        expect(res.status, res.text).toBe(200);
        const sale = Envelope(PullResponse)
          .parse(res.body)
          .data.changes.find((c) => c.entity === 'transaction')!.data as { fiscal: unknown; lines: Array<{ batches: unknown[] }> };
        return { statements: Number(res.headers.get(STATEMENTS_HEADER)), sale };
      };
      const a = await sellAndPull(plain, undefined);
      // The change log's page with the organisation's versions (one statement, issue 53); the sale,
      // its lines and its payment parts; the stock level.
      expect(a.statements).toBe(5);
      expect(a.sale.fiscal).toBeNull();
      expect(a.sale.lines[0]!.batches).toEqual([]);
      const f = await sellAndPull(fiscal, undefined);
      // Its receipt too.
      expect(f.statements).toBe(6);
      expect(f.sale.fiscal).toMatchObject({ gc: 1, dc: 1 });
      const p = await sellAndPull(pharmacy, amoxil.id, { prescription: PRESCRIPTION });
      expect(p.sale.fiscal).toBeNull();
      expect(p.sale.lines[0]!.batches).toEqual([
        expect.objectContaining({ lot_number: 'A-1', expiry_date: '2027-03-31', qty: 3 }),
        expect.objectContaining({ lot_number: 'A-2', expiry_date: '2027-09-30', qty: 2 }),
      ]);
    } finally {
      await counted.close();
    }
  });
});
