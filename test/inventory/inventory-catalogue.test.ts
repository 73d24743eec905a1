import { Category, Envelope, PagedEnvelope, Product } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStaff, insertSale, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('inventory: categories and products', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const post = (s: Session | { token: string }, path: string, body: unknown) => t.request('POST', path, { token: s.token, body });
  const product = (s: { token: string }, body: Record<string, unknown>) => post(s, '/inventory/products', body);

  it('creates, lists, updates and deletes categories with their product counts', async () => {
    const owner = await registerOwner(t);
    const drinks = await post(owner, '/inventory/categories', { name: 'Vinywaji', description: 'Drinks', sort_order: 2 });
    expect(drinks.status).toBe(200);
    const cat = Envelope(Category).parse(drinks.body).data;
    expect(cat).toMatchObject({ name: 'Vinywaji', description: 'Drinks', sort_order: 2, is_active: true, product_count: 0 });
    const flour = (await post(owner, '/inventory/categories', { name: 'Unga' })).body.data;
    await product(owner, { name: 'Coca-Cola 500ml', category_id: cat.id, selling_price: 1000 });
    await product(owner, { name: 'Fanta 500ml', category_id: cat.id, selling_price: 1000, is_active: false });

    const list = Envelope(z.array(Category)).parse((await t.request('GET', '/inventory/categories', { token: owner.token })).body).data;
    expect(list.map((c) => [c.name, c.product_count])).toEqual([
      ['Unga', 0],
      ['Vinywaji', 2],
    ]);

    const patched = await t.request('PATCH', `/inventory/categories/${cat.id}`, {
      token: owner.token,
      body: { name: 'Soft drinks', is_active: false },
    });
    expect(patched.body.data).toMatchObject({ name: 'Soft drinks', is_active: false, product_count: 2, description: 'Drinks' });

    const busy = await t.request('DELETE', `/inventory/categories/${cat.id}`, { token: owner.token });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('category still has 2 products; move or delete them first');
    const gone = await t.request('DELETE', `/inventory/categories/${flour.id}`, { token: owner.token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await t.request('GET', '/inventory/categories', { token: owner.token })).body.data).toHaveLength(1);
  });

  it('refuses a duplicate category name (409) and another organisation’s category (404)', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    await post(owner, '/inventory/categories', { name: 'Sabuni' });
    const dup = await post(owner, '/inventory/categories', { name: 'Sabuni' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'name' });
    const theirs = (await post(other, '/inventory/categories', { name: 'Sabuni' })).body.data;
    expect((await t.request('PATCH', `/inventory/categories/${theirs.id}`, { token: owner.token, body: { name: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', `/inventory/categories/${theirs.id}`, { token: owner.token })).status).toBe(404);
    expect((await product(owner, { name: 'Omo 1kg', category_id: theirs.id })).status).toBe(404);
  });

  it('creates a product with defaults and answers it with the active store’s stock', async () => {
    const owner = await registerOwner(t);
    const res = await product(owner, {
      name: 'Sukari 1kg',
      sku: 'SUK-1',
      barcode: '6161101234567',
      cost_price: 2800,
      selling_price: 3200.5,
      stock: 40,
    });
    expect(res.status).toBe(200);
    const p = Envelope(Product).parse(res.body).data;
    expect(p).toMatchObject({
      name: 'Sukari 1kg',
      sku: 'SUK-1',
      barcode: '6161101234567',
      cost_price: 2800,
      selling_price: 3200.5,
      wholesale_price: null,
      wholesale_min_qty: null,
      stock: 40,
      reorder_point: 5,
      tax_rate: 18,
      is_service: false,
      is_active: true,
      is_low_stock: false,
      category_id: null,
    });
    const got = await t.request('GET', `/inventory/products/${p.id}`, { token: owner.token });
    expect(got.body.data).toEqual(p);
  });

  it('accepts and returns wholesale prices', async () => {
    const owner = await registerOwner(t);
    const p = (await product(owner, { name: 'Mchele 25kg', selling_price: 75000, wholesale_price: 70000, wholesale_min_qty: 5 })).body.data;
    expect(p).toMatchObject({ selling_price: 75000, wholesale_price: 70000, wholesale_min_qty: 5 });
    const cleared = await t.request('PATCH', `/inventory/products/${p.id}`, {
      token: owner.token,
      body: { wholesale_price: null, wholesale_min_qty: null },
    });
    expect(cleared.body.data).toMatchObject({ wholesale_price: null, wholesale_min_qty: null, selling_price: 75000 });
  });

  it('finds a product by barcode, then by SKU, and 404 otherwise', async () => {
    const owner = await registerOwner(t);
    const p = (await product(owner, { name: 'Kiwi polish', sku: 'KIWI', barcode: '5000204000011' })).body.data;
    expect((await t.request('GET', '/inventory/products/barcode/5000204000011', { token: owner.token })).body.data.id).toBe(p.id);
    expect((await t.request('GET', '/inventory/products/barcode/KIWI', { token: owner.token })).body.data.id).toBe(p.id);
    const missing = await t.request('GET', '/inventory/products/barcode/0000', { token: owner.token });
    expect(missing.status).toBe(404);
    const other = await registerOwner(t);
    expect((await t.request('GET', '/inventory/products/barcode/KIWI', { token: other.token })).status).toBe(404);
  });

  it('refuses a duplicate SKU or barcode in the organisation (409 naming the field) but not across organisations', async () => {
    const owner = await registerOwner(t);
    await product(owner, { name: 'A', sku: 'SKU-1', barcode: '111' });
    const sku = await product(owner, { name: 'B', sku: 'SKU-1' });
    expect(sku.status).toBe(409);
    expect(sku.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'sku' });
    const code = await product(owner, { name: 'C', barcode: '111' });
    expect(code.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'barcode' });
    const other = await registerOwner(t);
    expect((await product(other, { name: 'A', sku: 'SKU-1', barcode: '111' })).status).toBe(200);
  });

  it('lets exactly one of two simultaneous creates with one SKU succeed', async () => {
    const owner = await registerOwner(t);
    const results = await Promise.all([1, 2, 3].map((n) => product(owner, { name: `Race ${n}`, sku: 'RACE', stock: 3 })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const rows = await t.db.db.selectFrom('products').select('id').where('org_id', '=', owner.orgId).where('sku', '=', 'RACE').execute();
    expect(rows).toHaveLength(1);
    const adjustments = await t.db.db.selectFrom('stock_adjustments').select('id').where('org_id', '=', owner.orgId).execute();
    expect(adjustments).toHaveLength(1);
  });

  it('lists products with search (name or SKU, any case), category, status, low-stock filters and paging', async () => {
    const owner = await registerOwner(t);
    const cat = (await post(owner, '/inventory/categories', { name: 'Soda' })).body.data;
    await product(owner, { name: 'Coca-Cola 300ml', sku: 'CC300', category_id: cat.id, stock: 50, reorder_point: 10 });
    await product(owner, { name: 'Pepsi 300ml', sku: 'PP300', category_id: cat.id, stock: 10, reorder_point: 10 });
    await product(owner, { name: 'Maji Uhai 1L', sku: 'UHAI1', stock: 3 });
    await product(owner, { name: 'Old cola', sku: 'OLD', is_active: false });
    await product(owner, { name: 'Delivery fee', is_service: true });
    const list = async (query: string) =>
      PagedEnvelope(Product).parse((await t.request('GET', `/inventory/products${query}`, { token: owner.token })).body);

    expect((await list('?search=COLA')).data.map((p) => p.name)).toEqual(['Coca-Cola 300ml', 'Old cola']);
    expect((await list('?search=pp3')).data.map((p) => p.name)).toEqual(['Pepsi 300ml']);
    expect((await list('?search=50%25')).data).toEqual([]);
    expect((await list(`?category_id=${cat.id}`)).data.map((p) => p.name)).toEqual(['Coca-Cola 300ml', 'Pepsi 300ml']);
    expect((await list('?status=inactive')).data.map((p) => p.name)).toEqual(['Old cola']);
    expect((await list('?low_stock=true')).data.map((p) => p.name)).toEqual(['Maji Uhai 1L', 'Old cola', 'Pepsi 300ml']);
    expect((await list('?low_stock=false')).data.map((p) => p.name)).toEqual(['Coca-Cola 300ml', 'Delivery fee']);

    const page = await list('?page=2&page_size=2');
    expect(page.meta as unknown).toEqual({ page: 2, page_size: 2, total: 5, total_pages: 3 });
    expect(page.data.map((p) => p.name)).toEqual(['Maji Uhai 1L', 'Old cola']);
    expect(((await list('?page_size=500')).meta as { page_size: number }).page_size).toBe(100);
    const bad = await t.request('GET', '/inventory/products?page=0&status=gone', { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['page', 'status']);
  });

  it('gives the exact total on every page: full, short, past the end, and an empty search', async () => {
    const owner = await registerOwner(t);
    for (const name of ['Cola A', 'Cola B', 'Cola C', 'Maji', 'Unga']) await product(owner, { name });
    const meta = async (query: string) => {
      const page = PagedEnvelope(Product).parse((await t.request('GET', `/inventory/products${query}`, { token: owner.token })).body);
      return { names: page.data.map((p) => p.name), ...(page.meta as { total: number; total_pages: number }) };
    };
    expect(await meta('?page_size=5')).toMatchObject({ names: ['Cola A', 'Cola B', 'Cola C', 'Maji', 'Unga'], total: 5, total_pages: 1 });
    expect(await meta('?page=3&page_size=2')).toMatchObject({ names: ['Unga'], total: 5, total_pages: 3 });
    expect(await meta('?page=4&page_size=2')).toMatchObject({ names: [], total: 5, total_pages: 3 });
    expect(await meta('?search=cola&page=2&page_size=1')).toMatchObject({ names: ['Cola B'], total: 3, total_pages: 3 });
    expect(await meta('?search=cola&page=2&page_size=2')).toMatchObject({ names: ['Cola C'], total: 3, total_pages: 2 });
    expect(await meta('?search=cola&page=3&page_size=2')).toMatchObject({ names: [], total: 3, total_pages: 2 });
    expect(await meta('?search=zzz')).toMatchObject({ names: [], total: 0, total_pages: 0 });
  });

  it('deletes a product without history, and deactivates one with sales (still 204)', async () => {
    const owner = await registerOwner(t);
    const fresh = (await product(owner, { name: 'Never sold' })).body.data;
    expect((await t.request('DELETE', `/inventory/products/${fresh.id}`, { token: owner.token })).status).toBe(204);
    expect((await t.request('GET', `/inventory/products/${fresh.id}`, { token: owner.token })).status).toBe(404);

    const sold = (await product(owner, { name: 'Sold once', selling_price: 500 })).body.data;
    await insertSale(t, {
      orgId: owner.orgId,
      storeId: owner.storeId,
      total: 500,
      lines: [{ productId: sold.id, qty: 1, unitPrice: 500 }],
    });
    const res = await t.request('DELETE', `/inventory/products/${sold.id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect((await t.request('GET', `/inventory/products/${sold.id}`, { token: owner.token })).body.data).toMatchObject({
      is_active: false,
      name: 'Sold once',
    });
  });

  // Another organisation's product on every product route, and no token: test/api/access-rules.test.ts.
  it('lets staff use the catalogue', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const made = await product(staff, { name: 'Staff-added', selling_price: 100 });
    expect(made.status).toBe(200);
    expect((await t.request('GET', `/inventory/products/${made.body.data.id}`, { token: owner.token })).body.data.name).toBe('Staff-added');
  });

  it('records product and stock changes in the change log', async () => {
    const owner = await registerOwner(t);
    const before = await t.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow();
    const p = (await product(owner, { name: 'Logged', stock: 4 })).body.data;
    const log = await t.db.db
      .selectFrom('change_log')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .where('version', '>', before.version)
      .orderBy('version')
      .execute();
    expect(log.map((l) => [l.entity, l.entity_id, l.op, l.store_id])).toEqual([
      ['stock', p.id, 'upsert', owner.storeId],
      ['product', p.id, 'upsert', null],
    ]);
    expect(log.map((l) => l.version)).toEqual([before.version + 1, before.version + 2]);
  });
});
