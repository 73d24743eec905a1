import { Envelope, PullResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const HEADER = 'name,sku,barcode,category,selling_price,cost_price,stock,reorder_point,unit';

/** `n` products; `tag` keeps one organisation's codes apart from another's. */
function catalogue(n: number, tag: string, change: (i: number, cells: string[]) => string[] = (_, c) => c): string {
  const rows = Array.from({ length: n }, (_, i) =>
    change(i, [
      `Item ${tag} ${i}`,
      `${tag}-${i}`,
      `${tag}${String(i).padStart(6, '0')}`,
      i % 2 ? 'Vinywaji' : 'Unga',
      String(1000 + i),
      '800',
      String(i % 7),
      '3',
      'piece',
    ]).join(','),
  );
  return [HEADER, ...rows].join('\r\n');
}

describe('inventory: the catalogue CSV import and export', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const importCsv = (s: Session, csv: string, opts: { dry_run?: boolean; key?: string } = {}) =>
    t.request('POST', '/inventory/products/import', {
      token: s.token,
      body: { csv, ...(opts.dry_run === undefined ? {} : { dry_run: opts.dry_run }) },
      ...(opts.key ? { headers: { 'idempotency-key': opts.key } } : {}),
    });
  const total = async (s: Session, query = '') =>
    (await t.request('GET', `/inventory/products?page_size=1${query}`, { token: s.token })).body.meta.total as number;
  const exported = async (s: Session) => (await t.request('GET', '/inventory/products/export', { token: s.token })).text;

  // Row 51 (the 50th product) has a bad price; row 302 repeats row 11's barcode.
  const twoBad = (tag: string) => catalogue(500, tag, (i, c) => (i === 49 ? c.with(4, 'abc') : i === 300 ? c.with(2, `${tag}000009`) : c));

  it('names both bad rows by spreadsheet row and field, writes nothing, then imports the fixed file whole', async () => {
    const owner = await registerOwner(t);
    await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Already here', selling_price: 500 } });

    const refused = await importCsv(owner, twoBad('A'));
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['rows[51].selling_price', 'VALIDATION_ERROR'],
      ['rows[302].barcode', 'DUPLICATE'],
    ]);
    expect(refused.body.errors[1].message).toBe('barcode A000009 is also on row 11');
    expect(await total(owner)).toBe(1);
    expect((await t.request('GET', '/inventory/categories', { token: owner.token })).body.data).toEqual([]);

    const dry = await importCsv(owner, twoBad('A'), { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ rows: 500, valid: 498 });
    expect(dry.body.data.errors).toHaveLength(2);
    expect(dry.body.data.preview).toHaveLength(20);
    expect(dry.body.data.preview[0]).toEqual({
      row: 2,
      name: 'Item A 0',
      sku: 'A-0',
      barcode: 'A000000',
      category: 'Unga',
      selling_price: 1000,
      cost_price: 800,
      stock: 0,
      reorder_point: 3,
      unit: 'piece',
    });
    const fixedDry = await importCsv(owner, catalogue(500, 'A'), { dry_run: true });
    expect(fixedDry.body.data).toMatchObject({ rows: 500, valid: 500, errors: [] });
    expect(await total(owner)).toBe(1);

    const done = await importCsv(owner, catalogue(500, 'A'));
    expect(done.status, done.text).toBe(201);
    expect(done.body.data).toEqual({ created: 500, categories_created: 2 });
    expect(await total(owner)).toBe(501);
    const item = (await t.request('GET', '/inventory/products/barcode/A000013', { token: owner.token })).body.data;
    expect(item).toMatchObject({ name: 'Item A 13', sku: 'A-13', selling_price: 1013, cost_price: 800, stock: 6, reorder_point: 3 });
    const adjustments = await t.request('GET', `/inventory/products/${item.id}/adjustments`, { token: owner.token });
    expect(adjustments.body.data).toMatchObject([{ qty_change: 6, qty_after: 6, reason: 'initial_stock' }]);
    const categories = (await t.request('GET', '/inventory/categories', { token: owner.token })).body.data;
    expect(categories.map((c: { name: string; product_count: number }) => [c.name, c.product_count]).sort()).toEqual([
      ['Unga', 250],
      ['Vinywaji', 250],
    ]);

    // The same file again: every code is now the organisation's.
    const again = await importCsv(owner, catalogue(3, 'A'));
    expect(again.status).toBe(400);
    expect(again.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'rows[2].barcode',
      'rows[2].sku',
      'rows[3].barcode',
      'rows[3].sku',
      'rows[4].barcode',
      'rows[4].sku',
    ]);
  });

  it('creates once for the same Idempotency-Key, and leaves another organisation alone', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    await t.request('POST', '/inventory/products', { token: other.token, body: { name: 'Theirs', barcode: 'K000001', sku: 'K-1' } });
    const csv = catalogue(5, 'K');
    const first = await importCsv(owner, csv, { key: 'import-k' });
    expect(first.status, first.text).toBe(201);
    const second = await importCsv(owner, csv, { key: 'import-k' });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data).toEqual(first.body.data);
    expect(await total(owner)).toBe(5);
    // A till's pull has them, product and level, as single creates leave them.
    const pulled = Envelope(PullResponse).parse((await t.request('GET', '/sync/pull', { token: owner.token })).body).data.changes;
    const item = pulled.find((c) => c.entity === 'product' && (c.data as { barcode?: string }).barcode === 'K000003')!;
    expect(item.data).toMatchObject({ name: 'Item K 3', stock: 3 });
    expect(pulled.find((c) => c.entity === 'stock' && c.id === item.id)!.data).toMatchObject({ stock: 3 });
    expect(await total(other)).toBe(1);
    expect((await t.request('GET', '/inventory/products/barcode/K000001', { token: other.token })).body.data.name).toBe('Theirs');
  });

  it('exports a catalogue that imports back unchanged', async () => {
    const owner = await registerOwner(t);
    const csv = catalogue(30, 'R', (i, c) =>
      i === 3 ? c.with(0, '"Sukari, 1 kg"').with(8, 'kg').with(6, '2.5') : i === 4 ? c.with(3, '') : c,
    );
    expect((await importCsv(owner, csv)).status).toBe(201);
    const file = await exported(owner);
    expect(file.split('\r\n')[0]).toBe(HEADER);
    expect(file).toContain('"Sukari, 1 kg",R-3,R000003,Vinywaji,1003,800,2.5,3,kg');
    expect(file).toContain('Item R 4,R-4,R000004,,1004,800,4,3,piece');

    const copy = await registerOwner(t);
    const back = await importCsv(copy, file);
    expect(back.status, back.text).toBe(201);
    expect(back.body.data.created).toBe(30);
    expect(await exported(copy)).toBe(file);
  });

  it('refuses a cashier without the stock permission, dry run or not; one with it imports', async () => {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner);
    for (const dry_run of [true, false]) {
      const refused = await importCsv(cashier as unknown as Session, catalogue(2, 'S'), { dry_run });
      expect(refused.status).toBe(403);
      expect(refused.body.meta).toMatchObject({ permission: 'stock' });
    }
    const stocker = await createStaff(t, owner, { can_manage_stock: true });
    expect((await importCsv(stocker as unknown as Session, catalogue(2, 'S'))).status).toBe(201);
    expect(await total(owner)).toBe(2);
  });

  it('refuses an unknown column, an empty file and more than 5,000 products', async () => {
    const owner = await registerOwner(t);
    const unknown = await importCsv(owner, 'name,colour\r\nSoap,red\r\n');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({
      field: 'csv',
      message: `column 2 "colour" is not one of ${HEADER.replaceAll(',', ', ')}`,
    });
    expect((await importCsv(owner, HEADER)).status).toBe(400);
    const big = await importCsv(owner, Array.from({ length: 5002 }, (_, i) => (i ? `P${i}` : 'name')).join('\n'));
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('the file has 5001 products; import at most 5,000 at a time (split the file)');
    expect(await total(owner)).toBe(0);
  });
});
