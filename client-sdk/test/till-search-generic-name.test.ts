import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newId, PagedEnvelope, Product } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MIGRATIONS, migrateLocal, openLocalDb, sqliteFile, Till } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

describe('till: product search by a medicine’s generic name', () => {
  let h: Harness;
  const tills: Till[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-till-search-'));
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds offline what the server finds, after bootstrap and after a pull that changed the generic name', async () => {
    const shop = await seedShop(h);
    const { token } = shop.owner;
    const create = async (body: Record<string, unknown>) => {
      const res = await h.t.request('POST', '/inventory/products', { token, body: { selling_price: 500, ...body } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.id as string;
    };
    const panadol = await create({ name: 'Panadol 500', sku: 'PND500', generic_name: 'Paracetamol', schedule: 'otc' });
    const calpol = await create({ name: 'Calpol Syrup', generic_name: 'PARACETAMOL' });
    const paraffin = await create({ name: 'Paraffin 1L', sku: 'PRF1' });
    const online = async (term: string) => {
      const res = await h.t.request('GET', `/inventory/products?search=${encodeURIComponent(term)}`, { token });
      return PagedEnvelope(Product)
        .parse(res.body)
        .data.map((p) => p.id);
    };

    const t = await openTill(h);
    tills.push(t);
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const offline = async (term: string) => (await t.searchProducts(term)).map((p) => p.id);
    expect(await offline('paracetamol')).toEqual([calpol, panadol]);
    expect(await offline('CETAMOL')).toEqual([calpol, panadol]);
    // A term of 1-2 letters or digits finds words that start with it, as the server does: "ce" is
    // inside Rice and Paracetamol but starts no word; "pa" starts Paracetamol and Paraffin, "1l" the 1L.
    expect(await offline('ce')).toEqual([]);
    expect(await offline('pa')).toEqual([calpol, panadol, paraffin]);
    expect(await offline('1l')).toEqual([paraffin]);
    expect(await offline('para')).toEqual([calpol, panadol, paraffin]);
    expect(await offline('paraffin')).toEqual([paraffin]);
    expect(await offline('pnd5')).toEqual([panadol]);
    expect(await offline('ibuprofen')).toEqual([]);
    h.net.offline = false;
    for (const term of ['paracetamol', 'CETAMOL', 'ce', 'pa', '1l', 'para', 'paraffin', 'pnd5'])
      expect(await offline(term), term).toEqual(await online(term));

    expect((await h.t.request('PATCH', `/inventory/products/${calpol}`, { token, body: { generic_name: 'Acetaminophen' } })).status).toBe(
      200,
    );
    await t.syncNow();
    h.net.offline = true;
    expect(await offline('paracetamol')).toEqual([panadol]);
    expect(await offline('acetaminophen')).toEqual([calpol]);
    expect(await offline('calpol')).toEqual([calpol]);
    h.net.offline = false;
    for (const term of ['paracetamol', 'acetaminophen', 'para']) expect(await offline(term), term).toEqual(await online(term));
  });

  it('fills the generic name of a replica made before local migration 0003 from the JSON it holds', async () => {
    const file = path.join(dir, 'old.db');
    const old = openLocalDb(sqliteFile(file));
    expect(await migrateLocal(old, '0002_conflicts')).toEqual(['0001_replica_and_queue', '0002_conflicts']);
    const product = (name: string, generic_name: string | null) => {
      const id = newId();
      const data = { id, name, sku: null, generic_name, is_service: false, is_active: true, stock: 5, reorder_point: 0 };
      return { id, name, sku: null, barcode: null, category_id: null, is_active: 1, data: JSON.stringify(data) };
    };
    const amoxil = product('Amoxil 250', 'Amoxicillin');
    const soap = product('Sabuni', null);
    // The old schema has no generic_name column: insert as the SDK of then did.
    await old
      .insertInto('products')
      .values([amoxil, soap] as never)
      .execute();
    await old.destroy();

    const till = await Till.open({ baseUrl: 'http://127.0.0.1:9/api/v1', dbPath: file, deviceName: 'Counter 1', autoSync: false });
    tills.push(till);
    expect((await till.searchProducts('amoxicillin')).map((p) => p.id)).toEqual([amoxil.id]);
    expect((await till.searchProducts('CILL')).map((p) => p.id)).toEqual([amoxil.id]);
    expect((await till.searchProducts('sabuni')).map((p) => p.id)).toEqual([soap.id]);

    const check = openLocalDb(sqliteFile(file));
    const rows = await check.selectFrom('products').select(['id', 'generic_name']).orderBy('name').execute();
    expect(rows).toEqual([
      { id: amoxil.id, generic_name: 'Amoxicillin' },
      { id: soap.id, generic_name: null },
    ]);
    // Re-runnable: a till stopped after the column was added finishes on its next start.
    await LOCAL_MIGRATIONS['0003_product_generic_name']!.up(check);
    expect(await check.selectFrom('products').select(['id', 'generic_name']).orderBy('name').execute()).toEqual(rows);
    await check.destroy();
  });
});
