import { Batch, BatchDetail, Envelope, ExpiringMeta, ExpiringPage, PageMeta, PagedEnvelope, PullResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../server/src/lib/time.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('pharmacy: the batch routes (list, detail, correction) and expiring stock', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const today = () => localDate(t.clock.now(), 'Africa/Dar_es_Salaam');
  const inDays = (d: number) => addDays(today(), d);
  const sell = async (s: { token: string }, lines: Array<{ product_id: string; qty: number }>) => {
    const res = await t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
    expect(res.status, res.text).toBe(201);
    return Envelope(Transaction).parse(res.body).data;
  };
  const lots = async (storeId: string, productId: string) =>
    (await batchRows(t, storeId, productId)).map(({ lot_number, status, qty_on_hand, source_batch_id }) => [
      lot_number,
      status,
      qty_on_hand,
      source_batch_id !== null,
    ]);
  const lotId = async (s: Session, productId: string, lot: string) =>
    (await batchRows(t, s.storeId, productId)).find((b) => b.lot_number === lot && b.source_batch_id === null)!.id;
  const list = async (s: { token: string }, query: string) => {
    const res = await t.request('GET', `/pharmacy/batches${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    const page = PagedEnvelope(Batch).parse(res.body);
    return { data: page.data, meta: PageMeta.parse(page.meta) };
  };
  const detail = async (s: { token: string }, id: string) => {
    const res = await t.request('GET', `/pharmacy/batches/${id}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(BatchDetail).parse(res.body).data;
  };
  const correct = (s: { token: string }, id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/pharmacy/batches/${id}`, { token: s.token, body });

  it('lists the store’s lots and quarantine rows by expiry then lot, filtered and paged, to any member; another shop’s batch is not found', async () => {
    const owner = await pharmacyOwner(t);
    const panadol = await newMedicine(t, owner);
    const amoxyl = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    await receiveLots(t, owner, [
      { product_id: panadol.id, lot_number: 'P-40', expiry_date: inDays(40), qty: 6 },
      { product_id: panadol.id, lot_number: 'P-10', expiry_date: inDays(10), qty: 4 },
      { product_id: panadol.id, lot_number: 'P-400', expiry_date: inDays(400), qty: 8 },
      { product_id: amoxyl.id, lot_number: 'am-20', expiry_date: inDays(20), qty: 3 },
    ]);
    const sale = await sell(owner, [{ product_id: panadol.id, qty: 1 }]);
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    const rows = (page: { data: Batch[] }) =>
      page.data.map((b) => [b.product_name, b.lot_number, b.status, b.qty_on_hand, b.source_batch_id !== null]);

    const cashier = await createStaff(t, owner);
    const all = await list(cashier, '');
    expect(rows(all)).toEqual([
      ['Panadol 500mg', 'P-10', 'sellable', 3, false],
      ['Panadol 500mg', 'P-10', 'quarantined', 1, true],
      ['Amoxyl 250mg', 'am-20', 'sellable', 3, false],
      ['Panadol 500mg', 'P-40', 'sellable', 6, false],
      ['Panadol 500mg', 'P-400', 'sellable', 8, false],
    ]);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 5, total_pages: 1 });
    expect(all.data[0]).toMatchObject({
      store_id: owner.storeId,
      product_id: panadol.id,
      expiry_date: inDays(10),
      cost_price: 300,
      supplier_id: expect.any(String),
      delivery_id: expect.any(String),
    });
    expect(all.data[1]).toMatchObject({ source_batch_id: all.data[0]!.id, transaction_id: sale.id });

    const page2 = await list(owner, '?page=2&page_size=2');
    expect(rows(page2)).toEqual([
      ['Amoxyl 250mg', 'am-20', 'sellable', 3, false],
      ['Panadol 500mg', 'P-40', 'sellable', 6, false],
    ]);
    expect(page2.meta).toEqual({ page: 2, page_size: 2, total: 5, total_pages: 3 });
    expect(rows(await list(owner, `?product_id=${amoxyl.id}`))).toEqual([['Amoxyl 250mg', 'am-20', 'sellable', 3, false]]);
    expect(rows(await list(owner, '?status=quarantined'))).toEqual([['Panadol 500mg', 'P-10', 'quarantined', 1, true]]);
    expect(rows(await list(owner, '?quarantine=true'))).toEqual([['Panadol 500mg', 'P-10', 'quarantined', 1, true]]);
    expect((await list(owner, '?quarantine=false')).meta.total).toBe(4);
    expect(rows(await list(owner, '?lot_number=AM-20'))).toEqual([['Amoxyl 250mg', 'am-20', 'sellable', 3, false]]);
    expect(rows(await list(owner, '?expiring_within_days=20'))).toEqual([
      ['Panadol 500mg', 'P-10', 'sellable', 3, false],
      ['Amoxyl 250mg', 'am-20', 'sellable', 3, false],
    ]);
    expect(rows(await list(owner, `?expiring_within_days=40&product_id=${panadol.id}`))).toEqual([
      ['Panadol 500mg', 'P-10', 'sellable', 3, false],
      ['Panadol 500mg', 'P-40', 'sellable', 6, false],
    ]);
    for (const [query, field] of [
      ['?expiring_within_days=731', 'expiring_within_days'],
      ['?status=lost', 'status'],
      ['?quarantine=maybe', 'quarantine'],
      ['?product_id=42', 'product_id'],
    ] as const) {
      const bad = await t.request('GET', `/pharmacy/batches${query}`, { token: owner.token });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe(field);
    }

    const stranger = await pharmacyOwner(t);
    expect((await list(stranger, '')).meta.total).toBe(0);
    // Another organisation's batch by id: test/api/access-rules.test.ts.
    const p10 = await detail(cashier, all.data[0]!.id);
    expect(p10.movement_count).toBe(2);
    expect(p10.movements.map((m) => [m.kind, m.qty, m.qty_after, m.stock_change, m.status_from, m.status_to, m.transaction_id])).toEqual([
      ['dispensed', -1, 3, -1, 'sellable', 'sellable', sale.id],
      ['received', 4, 4, 4, 'sellable', 'sellable', null],
    ]);
    expect(p10.movements[1]!.delivery_id).toBe(all.data[0]!.delivery_id);
    await expectBatchesMatchStock(t, owner);
  });

  it('corrects a lot number and expiry with a reason: a corrected ledger line, the quarantine rows follow, an audit entry, and tills pull it', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner);
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'A-1', expiry_date: inDays(100), qty: 10 },
      { product_id: med.id, lot_number: 'B-1', expiry_date: inDays(200), qty: 5 },
    ]);
    const sale = await sell(owner, [{ product_id: med.id, qty: 2 }]);
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    const a1 = await lotId(owner, med.id, 'A-1');
    const b1 = await lotId(owner, med.id, 'B-1');
    await t.db.db.updateTable('batches').set({ expiry_alerted_at: t.clock.now() }).where('id', '=', a1).execute();
    let cursor: string | undefined;
    for (let more = true; more; ) {
      const page = Envelope(PullResponse).parse(
        (await t.request('GET', `/sync/pull${cursor ? `?cursor=${cursor}` : ''}`, { token: owner.token })).body,
      ).data;
      cursor = page.cursor;
      more = page.has_more;
    }

    const cashier = await createStaff(t, owner);
    const refused = await correct(cashier, a1, { lot_number: 'A-7', reason: 'typo' });
    expect([refused.status, refused.body.message]).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    const nothing = await correct(owner, a1, { reason: 'typo' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors[0]).toMatchObject({ field: 'lot_number', message: 'send lot_number or expiry_date' });
    expect((await correct(owner, a1, { lot_number: 'A-7' })).body.errors[0].field).toBe('reason');
    const duplicate = await correct(owner, a1, { lot_number: 'b-1', reason: 'typo' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([
      { code: 'DUPLICATE', field: 'lot_number', message: 'lot b-1 of Panadol 500mg is already another batch in this store' },
    ]);
    const reserved = await correct(owner, b1, { lot_number: 'unallocated', reason: 'typo' });
    expect(reserved.status).toBe(400);
    expect(reserved.body.errors[0]).toMatchObject({ field: 'lot_number', message: 'UNALLOCATED is reserved for units no lot held' });
    const quarantine = (await batchRows(t, owner.storeId, med.id)).find((b) => b.source_batch_id === a1)!;
    const onQuarantine = await correct(owner, quarantine.id, { expiry_date: inDays(90), reason: 'typo' });
    expect(onQuarantine.status).toBe(409);
    expect(onQuarantine.body.errors).toEqual([
      {
        code: 'INVALID_STATE',
        field: 'expiry_date',
        message: `this is a quarantine row of lot A-1: correct batch ${a1} and its quarantine rows follow`,
      },
    ]);

    const res = await correct(owner, a1, { lot_number: 'A-7', expiry_date: inDays(90), reason: 'lot misread at receipt' });
    expect(res.status, res.text).toBe(200);
    const corrected = Envelope(Batch).parse(res.body).data;
    expect(corrected).toMatchObject({ id: a1, lot_number: 'A-7', expiry_date: inDays(90), qty_on_hand: 8, status: 'sellable' });
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['A-7', 'sellable', 8, false],
      ['A-7', 'quarantined', 2, true],
      ['B-1', 'sellable', 5, false],
    ]);
    const correction = { before: { lot_number: 'A-1', expiry_date: inDays(100) }, after: { lot_number: 'A-7', expiry_date: inDays(90) } };
    const batch = await detail(owner, a1);
    expect(batch.movement_count).toBe(3);
    expect(batch.movements[0]).toEqual({
      id: expect.any(String),
      kind: 'corrected',
      qty: 0,
      qty_after: 8,
      stock_change: 0,
      status_from: 'sellable',
      status_to: 'sellable',
      transaction_id: null,
      delivery_id: null,
      recall_id: null,
      reason: 'lot misread at receipt',
      method: null,
      witness: null,
      note: null,
      details: correction,
      user_id: owner.userId,
      user_name: 'Asha Mushi',
      created_at: expect.any(String),
    });
    expect((await detail(owner, quarantine.id)).movements[0]).toMatchObject({
      kind: 'corrected',
      qty: 0,
      qty_after: 2,
      stock_change: 0,
      details: correction,
    });
    const alerted = await t.db.db.selectFrom('batches').select('expiry_alerted_at').where('id', '=', a1).executeTakeFirstOrThrow();
    expect(alerted.expiry_alerted_at).toBeNull();
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'description', 'user_id', 'store_id'])
      .where('entity_id', '=', a1)
      .execute();
    expect(audit).toEqual([
      {
        action: 'pharmacy.batch.correct',
        description: `Corrected Panadol 500mg lot A-1: lot A-1 → A-7, expiry ${inDays(100)} → ${inDays(90)} (lot misread at receipt)`,
        user_id: owner.userId,
        store_id: owner.storeId,
      },
    ]);
    const pulled = Envelope(PullResponse).parse((await t.request('GET', `/sync/pull?cursor=${cursor}`, { token: owner.token })).body).data;
    const change = pulled.changes.find((c) => c.entity === 'batch' && c.id === a1);
    expect(Batch.parse(change!.data)).toEqual(corrected);

    // The same values again change nothing and write nothing.
    const again = await correct(owner, a1, { lot_number: 'A-7', reason: 'again' });
    expect(again.status).toBe(200);
    expect((await detail(owner, a1)).movement_count).toBe(3);
    // Receiving the corrected lot adds to it; the old number is free for a new lot.
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'A-7', expiry_date: inDays(90), qty: 1 },
      { product_id: med.id, lot_number: 'A-1', expiry_date: inDays(300), qty: 1 },
    ]);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['A-1', 'sellable', 1, false],
      ['A-7', 'sellable', 9, false],
      ['A-7', 'quarantined', 2, true],
      ['B-1', 'sellable', 5, false],
    ]);
    await expectBatchesMatchStock(t, owner);
  });

  it('values the stock expiring within N days (and already past date) at cost and at price, with totals over every page', async () => {
    const owner = await pharmacyOwner(t);
    const panadol = await newMedicine(t, owner, { selling_price: 500 });
    const syrup = await newMedicine(t, owner, {
      name: 'Amoxyl Syrup',
      generic_name: 'Amoxicillin',
      strength: '125 mg/5 ml',
      dosage_form: 'suspension',
      selling_price: 1200.5,
    });
    await receiveLots(t, owner, [
      { product_id: panadol.id, lot_number: 'L-PAST', expiry_date: inDays(5), qty: 2, unit_cost: 300 },
      { product_id: panadol.id, lot_number: 'L-10', expiry_date: inDays(10), qty: 4, unit_cost: 300 },
      { product_id: panadol.id, lot_number: 'L-60', expiry_date: inDays(60), qty: 6, unit_cost: 320 },
      { product_id: panadol.id, lot_number: 'L-200', expiry_date: inDays(200), qty: 8, unit_cost: 300 },
      { product_id: syrup.id, lot_number: 'S-30', expiry_date: inDays(30), qty: 3, unit_cost: 800.25 },
      { product_id: syrup.id, lot_number: 'S-20', expiry_date: inDays(20), qty: 1, unit_cost: 800 },
    ]);
    // The pack said yesterday: past date but not yet marked expired by the midnight job.
    const past = await lotId(owner, panadol.id, 'L-PAST');
    expect((await correct(owner, past, { expiry_date: inDays(-1), reason: 'misread' })).status).toBe(200);
    // Sold out, and refunded into quarantine: neither counts.
    const sale = await sell(owner, [{ product_id: syrup.id, qty: 1 }]);
    expect(sale.lines[0]!.batches.map((b) => b.lot_number)).toEqual(['S-20']);
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);

    const expiring = async (query: string) => {
      const res = await t.request('GET', `/pharmacy/expiring${query}`, { token: owner.token });
      expect(res.status, res.text).toBe(200);
      const page = ExpiringPage.parse(res.body);
      return { data: page.data, meta: ExpiringMeta.parse(page.meta) };
    };
    const all = await expiring('');
    expect(
      all.data.map((b) => [
        b.product_name,
        b.lot_number,
        b.expiry_date,
        b.days_to_expiry,
        b.qty,
        b.cost_price,
        b.selling_price,
        b.value_at_cost,
        b.value_at_price,
      ]),
    ).toEqual([
      ['Panadol 500mg', 'L-PAST', inDays(-1), -1, 2, 300, 500, 600, 1000],
      ['Panadol 500mg', 'L-10', inDays(10), 10, 4, 300, 500, 1200, 2000],
      ['Amoxyl Syrup', 'S-30', inDays(30), 30, 3, 800.25, 1200.5, 2400.75, 3601.5],
      ['Panadol 500mg', 'L-60', inDays(60), 60, 6, 320, 500, 1920, 3000],
    ]);
    expect(all.data[0]).toMatchObject({ batch_id: past, product_id: panadol.id });
    const totals = { today: today(), days: 90, total_qty: 15, total_value_at_cost: 6120.75, total_value_at_price: 9601.5 };
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 4, total_pages: 1, ...totals });
    const page2 = await expiring('?page=2&page_size=3');
    expect(page2.data.map((b) => b.lot_number)).toEqual(['L-60']);
    expect(page2.meta).toEqual({ page: 2, page_size: 3, total: 4, total_pages: 2, ...totals });
    expect((await expiring('?days=30')).meta).toEqual({
      page: 1,
      page_size: 20,
      total: 3,
      total_pages: 1,
      today: today(),
      days: 30,
      total_qty: 9,
      total_value_at_cost: 4200.75,
      total_value_at_price: 6601.5,
    });
    expect((await expiring('?days=0')).data.map((b) => b.lot_number)).toEqual(['L-PAST']);
    expect((await expiring('?days=730')).meta.total_qty).toBe(23);

    const tooFar = await t.request('GET', '/pharmacy/expiring?days=731', { token: owner.token });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.errors[0].field).toBe('days');
    const cashier = await createStaff(t, owner);
    const refused = await t.request('GET', '/pharmacy/expiring', { token: cashier.token });
    expect([refused.status, refused.body.message]).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    const plainShop = await registerOwner(t);
    expect((await t.request('GET', '/pharmacy/expiring', { token: plainShop.token })).body.meta).toMatchObject({
      total: 0,
      total_qty: 0,
      total_value_at_cost: 0,
    });
    await expectBatchesMatchStock(t, owner);
  });

  it('documents the routes and their schemas in the OpenAPI reference', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/pharmacy/batches/{id}']).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.paths['/pharmacy/batches'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/pharmacy/expiring'])).toEqual(['get']);
    for (const schema of ['Batch', 'BatchDetail', 'BatchMovement', 'CorrectBatchInput', 'ExpiringBatch', 'ExpiringMeta'])
      expect(doc.components.schemas[schema], schema).toBeDefined();
    expect(doc.components.schemas.AdjustStockInput.properties.batch_id).toMatchObject({ type: 'string', format: 'uuid' });
  });
});
