/**
 * A dispensed lot is recorded once (issue 39, migration 0036): the ledger's dispensing line is the
 * sale's lot, as sold. Receipts, refunds and the recall trace read it; a correction of the lot later
 * leaves what was sold; and the migration moves the sale lots of before exactly, or refuses.
 */
import { Envelope, RecallDetail, Transaction } from '@duka/shared';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import type { Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const BEFORE = '2026_11_28_0035_mobile_money_sales';
const LOTS = 'transaction_line_batches';

describe('a dispensed lot recorded once: the ledger line is the sale’s lot', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await pharmacyOwner(t);
  });
  afterAll(() => t.close());

  const medicine = async (name: string, lots: Array<{ lot_number: string; expiry_date: string; qty: number }>) => {
    const med = await newMedicine(t, owner, { name });
    await receiveLots(
      t,
      owner,
      lots.map((l) => ({ product_id: med.id, ...l })),
    );
    return med;
  };
  const sell = async (med: { id: string }, qty: number) => {
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: med.id, qty }], payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    return Envelope(Transaction).parse(res.body).data;
  };
  const detail = async (id: string) =>
    Envelope(Transaction).parse((await t.request('GET', `/pos/transactions/${id}`, { token: owner.token })).body).data;
  const lotsOf = (sale: Transaction) =>
    sale.lines[0]!.batches.map(({ lot_number, expiry_date, qty }) => ({ lot_number, expiry_date, qty }));
  const dispensing = (saleId: string) =>
    t.db.db
      .selectFrom('batch_movements')
      .select(['batch_id', 'qty', 'lot_number', 'expiry_date'])
      .where('transaction_id', '=', saleId)
      .where('kind', '=', 'dispensed')
      .orderBy('id')
      .execute();
  const recall = async (med: { id: string }, lot: string) => {
    const res = await t.request('POST', '/pharmacy/recalls', {
      token: owner.token,
      body: { product_id: med.id, lot_number: lot, reason: 'TMDA notice' },
    });
    expect(res.status, res.text).toBe(201);
    return Envelope(RecallDetail)
      .parse(res.body)
      .data.sales.map((s) => [s.receipt_number, s.qty]);
  };

  it('writes one ledger line per lot taken, which the receipt prints as sold after the lot is corrected', async () => {
    const med = await medicine('Panadol 500mg', [
      { lot_number: 'P-1', expiry_date: '2027-01-31', qty: 4 },
      { lot_number: 'P-2', expiry_date: '2027-06-30', qty: 50 },
    ]);
    const sale = await sell(med, 6);
    expect(lotsOf(sale)).toEqual([
      { lot_number: 'P-1', expiry_date: '2027-01-31', qty: 4 },
      { lot_number: 'P-2', expiry_date: '2027-06-30', qty: 2 },
    ]);
    expect(await dispensing(sale.id)).toEqual([
      { batch_id: sale.lines[0]!.batches[0]!.batch_id, qty: -4, lot_number: 'P-1', expiry_date: '2027-01-31' },
      { batch_id: sale.lines[0]!.batches[1]!.batch_id, qty: -2, lot_number: 'P-2', expiry_date: '2027-06-30' },
    ]);
    const p2 = sale.lines[0]!.batches[1]!.batch_id;
    const corrected = await t.request('PATCH', `/pharmacy/batches/${p2}`, {
      token: owner.token,
      body: { lot_number: 'P-2B', expiry_date: '2027-07-31', reason: 'typo' },
    });
    expect(corrected.status, corrected.text).toBe(200);
    expect(lotsOf(await detail(sale.id))).toEqual(lotsOf(sale));
    // The trace goes by the lot as sold.
    expect(await recall(med, 'P-1')).toEqual([[sale.receipt_number, 4]]);

    // A void returns each lot's units to the batch they came from.
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/void`, { token: owner.token, body: { reason: 'rang twice' } })).status,
    ).toBe(200);
    expect((await batchRows(t, owner.storeId, med.id)).map((b) => [b.lot_number, b.status, b.qty_on_hand])).toEqual([
      ['P-1', 'recalled', 4],
      ['P-2B', 'sellable', 50],
    ]);
    await expectBatchesMatchStock(t, owner);
  });

  it('migration 0036 moves every sale lot of before into its dispensing line, exactly, or refuses and moves nothing', async () => {
    const med = await medicine('Amoxyl 250mg', [{ lot_number: 'A-1', expiry_date: '2027-06-30', qty: 10 }]);
    const sale = await sell(med, 3);
    const migrator = new Migrator({ db: t.db.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    // Down, the sale lots are back in their table: one row per dispensing line, as sold.
    const rows = await sql<{ batch_id: string; lot_number: string; expiry_date: string; qty: number }>`select batch_id, lot_number,
      expiry_date, qty from ${sql.table(LOTS)} where transaction_id = ${sale.id}`.execute(t.db.db);
    expect(rows.rows.map((r) => ({ ...r, qty: Number(r.qty) }))).toEqual(
      sale.lines[0]!.batches.map(({ batch_id, lot_number, expiry_date, qty }) => ({ batch_id, lot_number, expiry_date, qty })),
    );
    // A sale lot of before printed a lot number the batch no longer has: the receipt keeps it.
    await sql`update ${sql.table(LOTS)} set lot_number = 'A-1 OLD', expiry_date = '2027-06-01' where transaction_id = ${sale.id}`.execute(
      t.db.db,
    );

    // One without its dispensing line stops the migration before anything is dropped.
    const orphan = `${sale.id.slice(0, -4)}ffff`;
    await sql`insert into ${sql.table(LOTS)} (id, org_id, transaction_id, product_id, batch_id, lot_number, expiry_date, qty)
      select ${orphan}, org_id, transaction_id, product_id, batch_id, lot_number, expiry_date, 1 from ${sql.table(LOTS)}
      where transaction_id = ${sale.id}`.execute(t.db.db);
    const refused = await migrator.migrateToLatest();
    expect(String(refused.error)).toContain('1 sale lots have no dispensing line of the same units');
    expect((await sql<{ n: number }>`select count(*) as n from ${sql.table(LOTS)}`.execute(t.db.db)).rows[0]!.n).toBeGreaterThan(0);
    await sql`delete from ${sql.table(LOTS)} where id = ${orphan}`.execute(t.db.db);

    expect(await migrateToLatest(t.db.db)).toEqual(Object.keys(migrations).filter((name) => name > BEFORE));
    const tables = (await t.db.db.introspection.getTables()).map((x) => x.name);
    expect(tables).not.toContain(LOTS);
    expect(lotsOf(await detail(sale.id))).toEqual([{ lot_number: 'A-1 OLD', expiry_date: '2027-06-01', qty: 3 }]);
    expect(await dispensing(sale.id)).toEqual([
      { batch_id: sale.lines[0]!.batches[0]!.batch_id, qty: -3, lot_number: 'A-1 OLD', expiry_date: '2027-06-01' },
    ]);
    // A refund still returns the units to the lot they came from (into its quarantine row).
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    const quarantine = (await batchRows(t, owner.storeId, med.id)).filter((b) => b.source_batch_id !== null);
    expect(quarantine.map((b) => [b.source_batch_id, b.qty_on_hand])).toEqual([[sale.lines[0]!.batches[0]!.batch_id, 3]]);
    await expectBatchesMatchStock(t, owner);
  });
});
