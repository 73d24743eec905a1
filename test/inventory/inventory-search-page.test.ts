import { PagedEnvelope, Product } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/** What a search answers, page by page: the order, the total and the rows themselves, as a plain listing answers them. */
describe('inventory: a product search, page by page', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: Session, body: Record<string, unknown>) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body })).body.data as Product;
  const list = async (s: Session, query: string) => {
    const page = PagedEnvelope(Product).parse((await t.request('GET', `/inventory/products${query}`, { token: s.token })).body);
    return { items: page.data, ...(page.meta as { total: number; total_pages: number }) };
  };

  it('orders by name, then id among equal names, the same in a search as in the listing', async () => {
    const owner = await registerOwner(t);
    for (const sku of ['S1', 'S2', 'S3', 'S4']) await product(owner, { name: 'Sabuni Jamaa', sku });
    await product(owner, { name: 'Sabuni Ali', sku: 'S0' });
    await product(owner, { name: 'Unga', sku: 'U1' });
    const listed = (await list(owner, '?page_size=100')).items.filter((p) => p.name.startsWith('Sabuni')).map((p) => p.id);
    expect(listed.slice(1)).toEqual([...listed.slice(1)].sort());

    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await list(owner, `?search=sabuni&page=${page}&page_size=2`));
    expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(listed);
    expect(pages.map((p) => [p.total, p.total_pages])).toEqual([
      [5, 3],
      [5, 3],
      [5, 3],
    ]);
    expect(await list(owner, '?search=sabuni&page=4&page_size=2')).toMatchObject({ items: [], total: 5, total_pages: 3 });
  });

  it('answers each product whole, with the active store’s stock, as the product itself reads', async () => {
    const owner = await registerOwner(t);
    const soap = await product(owner, { name: 'Sabuni Omo', sku: 'OMO1', stock: 7, reorder_point: 2 });
    const none = await product(owner, { name: 'Sabuni Kipande', sku: 'KIP1', track_batches: false });
    const found = (await list(owner, '?search=sabuni')).items;
    const read = async (id: string) => (await t.request('GET', `/inventory/products/${id}`, { token: owner.token })).body.data;
    expect(found).toEqual([await read(none.id), await read(soap.id)]);
    expect(found.map((p) => p.stock)).toEqual([0, 7]);
  });

  it('applies category, status and low-stock filters to the matches, short and long terms alike', async () => {
    const owner = await registerOwner(t);
    const cat = (await t.request('POST', '/inventory/categories', { token: owner.token, body: { name: 'Usafi' } })).body.data;
    await product(owner, { name: 'Sabuni A', category_id: cat.id, stock: 50, reorder_point: 10 });
    await product(owner, { name: 'Sabuni B', category_id: cat.id, stock: 3, reorder_point: 10 });
    await product(owner, { name: 'Sabuni C', stock: 1, reorder_point: 10, is_active: false });
    await product(owner, { name: 'Sabuni D (service)', is_service: true });
    await product(owner, { name: 'Unga', stock: 1 });
    const names = async (query: string) => {
      const page = await list(owner, query);
      return { names: page.items.map((p) => p.name), total: page.total };
    };
    for (const term of ['sabuni', 'sa']) {
      expect(await names(`?search=${term}&low_stock=true`)).toEqual({ names: ['Sabuni B', 'Sabuni C'], total: 2 });
      expect(await names(`?search=${term}&low_stock=false`)).toEqual({ names: ['Sabuni A', 'Sabuni D (service)'], total: 2 });
      expect(await names(`?search=${term}&category_id=${cat.id}&page_size=1`)).toEqual({ names: ['Sabuni A'], total: 2 });
      expect(await names(`?search=${term}&status=inactive`)).toEqual({ names: ['Sabuni C'], total: 1 });
    }
  });
});
