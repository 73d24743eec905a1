import { Envelope, PagedEnvelope, Product } from '@duka/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../../migrations/2026_11_23_0017_product_search_generic_name.js';
import { textSearch } from '../../server/src/db/dialect.js';
import { PRODUCT_SEARCH } from '../../server/src/modules/inventory/product-search.queries.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('inventory: product search by a medicine’s generic name', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  /** Product ids by name, for exact comparisons. */
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp();
    const pharmacy = (name: string) =>
      registerOwner(t, { shop: { name, business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' } });
    owner = await pharmacy('Famasia ya Upendo');
    other = await pharmacy('Famasia ya Jirani');
    for (const body of [
      { name: 'Panadol 500', sku: 'PND500', generic_name: 'Paracetamol', schedule: 'otc' },
      { name: 'Calpol Syrup', sku: 'CLP100', generic_name: 'PARACETAMOL' },
      { name: 'Amoxil 250', sku: 'AMX250', generic_name: 'Amoxicillin', schedule: 'pom' },
      { name: 'Paraffin 1L', sku: 'PRF1' },
    ]) {
      ids[body.name] = await create(owner, body);
    }
    ids['Panadol Extra'] = await create(other, { name: 'Panadol Extra', sku: 'PNDX', generic_name: 'Paracetamol', schedule: 'otc' });
  });
  afterAll(() => t.close());

  async function create(s: Session, body: Record<string, unknown>): Promise<string> {
    const res = await t.request('POST', '/inventory/products', { token: s.token, body: { selling_price: 500, ...body } });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data.id;
  }
  /** The ids a search answers, in the order listed (by name), with the total it reports. */
  async function search(s: Session, term: string): Promise<{ ids: string[]; total: number }> {
    const res = await t.request('GET', `/inventory/products?search=${encodeURIComponent(term)}&page_size=100`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    const page = PagedEnvelope(Product).parse(res.body);
    return { ids: page.data.map((p) => p.id), total: (page.meta as { total: number }).total };
  }
  const named = (...names: string[]) => names.map((n) => ids[n]!);

  it('finds a medicine by its generic name, whole or in part, in any case', async () => {
    expect(await search(owner, 'paracetamol')).toEqual({ ids: named('Calpol Syrup', 'Panadol 500'), total: 2 });
    expect((await search(owner, 'CETAMOL')).ids).toEqual(named('Calpol Syrup', 'Panadol 500'));
    expect((await search(owner, 'amoxicillin')).ids).toEqual(named('Amoxil 250'));
    expect((await search(owner, 'icill')).ids).toEqual(named('Amoxil 250'));
  });

  it('still finds by name and SKU, a product without a generic name included', async () => {
    expect((await search(owner, 'panadol')).ids).toEqual(named('Panadol 500'));
    expect((await search(owner, 'pnd5')).ids).toEqual(named('Panadol 500'));
    expect((await search(owner, 'paraffin')).ids).toEqual(named('Paraffin 1L'));
    expect((await search(owner, 'prf1')).ids).toEqual(named('Paraffin 1L'));
    // "para" is in Paraffin's name and in the others' generic name: one search, both ways.
    expect(await search(owner, 'para')).toEqual({ ids: named('Calpol Syrup', 'Panadol 500', 'Paraffin 1L'), total: 3 });
    expect((await search(owner, 'ibuprofen')).ids).toEqual([]);
  });

  it('matches short terms (under 3 characters) at the start of a word of the generic name too', async () => {
    // "pa": Panadol and Paraffin by their name, Calpol by "PARACETAMOL".
    expect(await search(owner, 'pa')).toEqual({ ids: named('Calpol Syrup', 'Panadol 500', 'Paraffin 1L'), total: 3 });
    // "am": Amoxil by its name, SKU and generic name; no longer "Paracetamol", where it is inside the word.
    expect((await search(owner, 'Am')).ids).toEqual(named('Amoxil 250'));
    // "ce" starts no word here: only inside "Paracetamol".
    expect((await search(owner, 'CE')).ids).toEqual([]);
    expect((await search(other, 'p')).ids).toEqual(named('Panadol Extra'));
  });

  it('never finds another organisation’s medicine', async () => {
    expect((await search(owner, 'extra')).ids).toEqual([]);
    expect((await search(owner, 'paracetamol')).ids).not.toContain(ids['Panadol Extra']);
    expect(await search(other, 'paracetamol')).toEqual({ ids: named('Panadol Extra'), total: 1 });
    expect((await search(other, 'amoxicillin')).ids).toEqual([]);
  });

  it('follows a changed or removed generic name', async () => {
    const patch = (name: string, body: Record<string, unknown>) =>
      t.request('PATCH', `/inventory/products/${ids[name]}`, { token: owner.token, body });
    expect((await patch('Calpol Syrup', { generic_name: 'Acetaminophen' })).status).toBe(200);
    expect((await search(owner, 'acetaminophen')).ids).toEqual(named('Calpol Syrup'));
    expect((await search(owner, 'paracetamol')).ids).toEqual(named('Panadol 500'));
    expect((await patch('Calpol Syrup', { generic_name: null })).status).toBe(200);
    expect((await search(owner, 'acetaminophen')).ids).toEqual([]);
    expect((await search(owner, 'calpol')).ids).toEqual(named('Calpol Syrup'));
    expect((await patch('Calpol Syrup', { generic_name: 'Paracetamol' })).status).toBe(200);
    expect((await search(owner, 'paracetamol')).ids).toEqual(named('Calpol Syrup', 'Panadol 500'));
  });

  it('answers from the text index: one indexed match over name, SKU and generic name', async () => {
    const query = sql`select p.id from products p where ${textSearch(t.db.dialect, PRODUCT_SEARCH, 'paracetamol')}`;
    if (t.db.dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan ${query}`.execute(t.db.db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/products_fts VIRTUAL TABLE INDEX/);
      const fts = await sql<{ sql: string }>`select sql from sqlite_master where name = 'products_fts'`.execute(t.db.db);
      expect(fts.rows[0]?.sql).toContain('fts5(name, sku, generic_name,');
      return;
    }
    const plan = await t.db.db.transaction().execute(async (trx) => {
      // The test catalogue is tiny: forbid the sequential scan to see which index the planner takes.
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
    });
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    for (const column of PRODUCT_SEARCH.columns) expect(text).toContain(`ix__products__${column}_trgm`);
  });

  it('the migration indexes existing rows, can run again, and keeps the index in step afterwards', async () => {
    await migration.down(t.db.db);
    await migration.up(t.db.db);
    // A run cut short is finished by the next: running it again over a finished one changes nothing.
    await migration.up(t.db.db);
    expect((await search(owner, 'paracetamol')).ids).toEqual(named('Calpol Syrup', 'Panadol 500'));
    expect((await search(owner, 'CETAM')).ids).toEqual(named('Calpol Syrup', 'Panadol 500'));
    ids['Brufen 400'] = await create(owner, { name: 'Brufen 400', generic_name: 'Ibuprofen' });
    expect((await search(owner, 'ibuprofen')).ids).toEqual(named('Brufen 400'));
    expect((await search(owner, 'paracetamol')).ids).toEqual(named('Calpol Syrup', 'Panadol 500'));
  });
});
