import { ControlledRegister, DisposalRegister, Envelope, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import { lockStock, moveBatch } from '../../server/src/modules/pharmacy/lots/batch-ledger.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner } from '../setup/pharmacy-factories.js';
import { newDelivery, newSupplier, productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const prescription = {
  patient_name: 'Baraka Mwita',
  patient_age: 54,
  patient_sex: 'male',
  prescriber_name: 'Dr. Rehema Kimaro',
  prescriber_registration_number: 'MCT-4471',
  facility: 'Amana Regional Hospital',
  date_written: '2026-12-02',
};

describe('pharmacy registers: the controlled-drug register after a mixed day, and the disposal register', () => {
  let t: TestApp;
  let owner: Session;
  let med: { id: string; name: string };
  const receipts: Record<string, string> = {};
  const minute = () => t.clock.advance(60_000);
  const get = (path: string, token = owner.token) => t.request('GET', path, { token });
  const post = async (path: string, body: unknown) => {
    const res = await t.request('POST', path, { token: owner.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const sell = async (name: string, qty: number) => {
    const sale = Envelope(Transaction).parse({
      ...(
        await t.request('POST', '/pos/sale', {
          token: owner.token,
          body: { lines: [{ product_id: med.id, qty }], payment_method: 'Cash', prescription },
        })
      ).body,
    }).data;
    receipts[name] = sale.receipt_number;
    return sale;
  };
  const lot = async (lotNumber: string, quarantine = false) =>
    (await batchRows(t, owner.storeId, med.id)).find(
      (b) => b.lot_number === lotNumber && (b.source_batch_id !== null) === quarantine && (!quarantine || b.qty_on_hand > 0),
    )!;

  beforeAll(async () => {
    t = await createTestApp();
    // 09:00 in Dar es Salaam, so the register's times read the same on every run.
    t.clock.advance(Date.parse('2026-12-02T06:00:00Z') - t.clock.now());
    owner = await pharmacyOwner(t);
    med = await newMedicine(t, owner, {
      name: 'Morphine 10mg',
      generic_name: 'Morphine sulfate',
      strength: '10 mg',
      schedule: 'controlled',
      selling_price: 2000,
      cost_price: 1200,
    });

    minute(); // 09:01
    const supplier = await newSupplier(t, owner, { name: 'MSD Dar es Salaam' });
    await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      invoice_number: 'INV-77',
      lines: [
        { product_id: med.id, qty: 20, unit_cost: 1200, lot_number: 'M-1', expiry_date: '2027-02-28' },
        { product_id: med.id, qty: 10, unit_cost: 1500, lot_number: 'M-2', expiry_date: '2027-08-31' },
      ],
    });
    minute(); // 09:02
    const a = await sell('A', 6);
    minute(); // 09:03
    const b = await sell('B', 4);
    minute(); // 09:04
    await post(`/pos/transactions/${b.id}/refund`, { reason: 'patient discharged' });
    minute(); // 09:05
    await post(`/pharmacy/quarantine/${(await lot('M-1', true)).id}/release`, { note: 'seals intact' });
    minute(); // 09:06
    const c = await sell('C', 3);
    minute(); // 09:07
    await post(`/pos/transactions/${c.id}/void`, { reason: 'rang twice' });
    minute(); // 09:08
    // A stock count that names the batch (the stock adjust route is another slice of issue 14), through the ledger itself.
    const m2 = await t.db.db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', (await lot('M-2')).id)
      .executeTakeFirstOrThrow();
    await withTransaction(t.serviceCtx(), async (tx) => {
      await lockStock(tx, owner.orgId, owner.storeId, med.id);
      await moveBatch(tx, m2, { kind: 'adjusted', qty: -1, reason: 'ampoule broken' }, { productName: med.name });
    });
    minute(); // 09:09
    await post(`/pos/transactions/${a.id}/refund`, { reason: 'wrong dose' });
    minute(); // 09:10
    await post('/pharmacy/recalls', { product_id: med.id, lot_number: 'M-1', reason: 'TMDA recall 2026/114' });
    minute(); // 09:11
    await post(`/pharmacy/batches/${(await lot('M-1')).id}/dispose`, {
      reason: 'recalled',
      method: 'incineration',
      witness: 'Juma Said (TMDA)',
    });
    await post(`/pharmacy/batches/${(await lot('M-1', true)).id}/dispose`, {
      reason: '=recalled',
      method: 'returned to MSD',
      witness: '@Neema',
      qty: 2,
    });
  });
  afterAll(() => t.close());

  it('lists every ledger line with its stock change and the balance after it, ending at the stock', async () => {
    const res = await get(`/pharmacy/registers/controlled?product_id=${med.id}&date_from=2026-12-02&date_to=2026-12-02`);
    expect(res.status, res.text).toBe(200);
    const r = Envelope(ControlledRegister).parse(res.body).data;
    expect(r).toMatchObject({
      product_name: 'Morphine 10mg',
      generic_name: 'Morphine sulfate',
      strength: '10 mg',
      date_from: '2026-12-02',
      date_to: '2026-12-02',
      timezone: 'Africa/Dar_es_Salaam',
      opening_balance: 0,
      closing_balance: 9,
    });
    expect(
      r.lines.map((l) => [
        l.at.slice(11, 16),
        l.kind,
        l.lot_number,
        l.qty,
        l.units,
        l.balance,
        l.status_to,
        l.reference,
        l.note,
        l.user_name,
      ]),
    ).toEqual([
      ['06:01', 'received', 'M-1', 20, 20, 20, 'sellable', 'INV-77', null, 'Asha Mushi'],
      ['06:01', 'received', 'M-2', 10, 10, 30, 'sellable', 'INV-77', null, 'Asha Mushi'],
      ['06:02', 'dispensed', 'M-1', -6, -6, 24, 'sellable', receipts.A, null, 'Asha Mushi'],
      ['06:03', 'dispensed', 'M-1', -4, -4, 20, 'sellable', receipts.B, null, 'Asha Mushi'],
      ['06:04', 'refunded', 'M-1', 0, 4, 20, 'quarantined', receipts.B, null, 'Asha Mushi'],
      ['06:05', 'released', 'M-1', 0, -4, 20, 'sellable', receipts.B, 'seals intact', 'Asha Mushi'],
      ['06:05', 'released', 'M-1', 4, 4, 24, 'sellable', receipts.B, 'seals intact', 'Asha Mushi'],
      ['06:06', 'dispensed', 'M-1', -3, -3, 21, 'sellable', receipts.C, null, 'Asha Mushi'],
      ['06:07', 'voided', 'M-1', 3, 3, 24, 'sellable', receipts.C, null, 'Asha Mushi'],
      ['06:08', 'adjusted', 'M-2', -1, -1, 23, 'sellable', null, 'ampoule broken', null],
      ['06:09', 'refunded', 'M-1', 0, 6, 23, 'quarantined', receipts.A, null, 'Asha Mushi'],
      ['06:10', 'recalled', 'M-1', -14, 0, 9, 'recalled', null, 'TMDA recall 2026/114', 'Asha Mushi'],
      ['06:10', 'recalled', 'M-1', 0, 0, 9, 'recalled', null, 'TMDA recall 2026/114', 'Asha Mushi'],
      ['06:11', 'disposed', 'M-1', 0, -14, 9, 'disposed', null, 'recalled', 'Asha Mushi'],
      ['06:11', 'disposed', 'M-1', 0, -2, 9, 'recalled', null, '=recalled', 'Asha Mushi'],
    ]);
    expect(r.closing_balance).toBe((await productOf(t, owner, med.id)).stock);
    expect(
      (await batchRows(t, owner.storeId, med.id)).map((b) => [b.lot_number, b.status, b.qty_on_hand, b.source_batch_id !== null]),
    ).toEqual([
      ['M-1', 'disposed', 0, false],
      ['M-1', 'sellable', 0, true],
      ['M-1', 'recalled', 4, true],
      ['M-2', 'sellable', 9, false],
    ]);

    // The balance before a period is its opening; a period with no lines keeps it.
    const later = Envelope(ControlledRegister).parse(
      (await get(`/pharmacy/registers/controlled?product_id=${med.id}&date_from=2026-12-03&date_to=2026-12-05`)).body,
    ).data;
    expect(later).toMatchObject({ opening_balance: 9, closing_balance: 9, lines: [] });
    const before = Envelope(ControlledRegister).parse(
      (await get(`/pharmacy/registers/controlled?product_id=${med.id}&date_from=2026-11-01&date_to=2026-12-01`)).body,
    ).data;
    expect(before).toMatchObject({ opening_balance: 0, closing_balance: 0, lines: [] });
    // Default period: this month so far.
    const month = Envelope(ControlledRegister).parse((await get(`/pharmacy/registers/controlled?product_id=${med.id}`)).body).data;
    expect([month.date_from, month.date_to, month.lines.length, month.closing_balance]).toEqual(['2026-12-01', '2026-12-02', 15, 9]);
    await expectBatchesMatchStock(t, owner);
  });

  it('writes the controlled register as CSV: opening balance first, local times, formula-like text defused', async () => {
    const res = await get(`/pharmacy/registers/controlled.csv?product_id=${med.id}&date_from=2026-12-02&date_to=2026-12-02`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="controlled-register_2026-12-02_to_2026-12-02.csv"');
    const { A, B, C } = receipts;
    expect(res.text.split('\r\n')).toEqual([
      'date,time,kind,lot_number,expiry_date,qty,balance,units,status_from,status_to,reference,note,user',
      '2026-12-02,00:00:00,opening_balance,,,,0,,,,,,',
      '2026-12-02,09:01:00,received,M-1,2027-02-28,20,20,20,sellable,sellable,INV-77,,Asha Mushi',
      '2026-12-02,09:01:00,received,M-2,2027-08-31,10,30,10,sellable,sellable,INV-77,,Asha Mushi',
      `2026-12-02,09:02:00,dispensed,M-1,2027-02-28,-6,24,-6,sellable,sellable,${A},,Asha Mushi`,
      `2026-12-02,09:03:00,dispensed,M-1,2027-02-28,-4,20,-4,sellable,sellable,${B},,Asha Mushi`,
      `2026-12-02,09:04:00,refunded,M-1,2027-02-28,0,20,4,quarantined,quarantined,${B},,Asha Mushi`,
      `2026-12-02,09:05:00,released,M-1,2027-02-28,0,20,-4,quarantined,sellable,${B},seals intact,Asha Mushi`,
      `2026-12-02,09:05:00,released,M-1,2027-02-28,4,24,4,sellable,sellable,${B},seals intact,Asha Mushi`,
      `2026-12-02,09:06:00,dispensed,M-1,2027-02-28,-3,21,-3,sellable,sellable,${C},,Asha Mushi`,
      `2026-12-02,09:07:00,voided,M-1,2027-02-28,3,24,3,sellable,sellable,${C},,Asha Mushi`,
      '2026-12-02,09:08:00,adjusted,M-2,2027-08-31,-1,23,-1,sellable,sellable,,ampoule broken,',
      `2026-12-02,09:09:00,refunded,M-1,2027-02-28,0,23,6,quarantined,quarantined,${A},,Asha Mushi`,
      '2026-12-02,09:10:00,recalled,M-1,2027-02-28,-14,9,0,sellable,recalled,,TMDA recall 2026/114,Asha Mushi',
      '2026-12-02,09:10:00,recalled,M-1,2027-02-28,0,9,0,quarantined,recalled,,TMDA recall 2026/114,Asha Mushi',
      '2026-12-02,09:11:00,disposed,M-1,2027-02-28,0,9,-14,recalled,disposed,,recalled,Asha Mushi',
      "2026-12-02,09:11:00,disposed,M-1,2027-02-28,0,9,-2,recalled,recalled,,'=recalled,Asha Mushi",
      '',
    ]);
  });

  it('lists every disposal with its reason, method, witness and value at cost, as JSON and CSV', async () => {
    const res = await get('/pharmacy/registers/disposals?date_from=2026-12-02&date_to=2026-12-02');
    expect(res.status, res.text).toBe(200);
    const r = Envelope(DisposalRegister).parse(res.body).data;
    expect(r).toMatchObject({ date_from: '2026-12-02', date_to: '2026-12-02', total_qty: 16, total_value_at_cost: 19200 });
    expect(
      r.lines.map((l) => [
        l.date,
        l.product_name,
        l.generic_name,
        l.strength,
        l.lot_number,
        l.expiry_date,
        l.status_from,
        l.qty,
        l.reason,
        l.method,
        l.witness,
        l.user_name,
        l.unit_cost,
        l.value_at_cost,
      ]),
    ).toEqual([
      [
        '2026-12-02',
        'Morphine 10mg',
        'Morphine sulfate',
        '10 mg',
        'M-1',
        '2027-02-28',
        'recalled',
        14,
        'recalled',
        'incineration',
        'Juma Said (TMDA)',
        'Asha Mushi',
        1200,
        16800,
      ],
      [
        '2026-12-02',
        'Morphine 10mg',
        'Morphine sulfate',
        '10 mg',
        'M-1',
        '2027-02-28',
        'recalled',
        2,
        '=recalled',
        'returned to MSD',
        '@Neema',
        'Asha Mushi',
        1200,
        2400,
      ],
    ]);
    const otc = await newMedicine(t, owner, { name: 'Panadol Extra' });
    const none = await get(`/pharmacy/registers/disposals?product_id=${otc.id}&date_from=2026-12-02&date_to=2026-12-02`);
    expect(Envelope(DisposalRegister).parse(none.body).data).toMatchObject({ total_qty: 0, total_value_at_cost: 0, lines: [] });
    const mine = Envelope(DisposalRegister).parse(
      (await get(`/pharmacy/registers/disposals?product_id=${med.id}&date_from=2026-12-02&date_to=2026-12-02`)).body,
    ).data;
    expect(mine.lines.map((l) => l.qty)).toEqual([14, 2]);
    const stranger = await pharmacyOwner(t);
    const foreign = await get(`/pharmacy/registers/disposals?product_id=${med.id}`, stranger.token);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'product not found']);
    expect(Envelope(DisposalRegister).parse((await get('/pharmacy/registers/disposals', stranger.token)).body).data.lines).toEqual([]);

    const csv = await get('/pharmacy/registers/disposals.csv?date_from=2026-12-01&date_to=2026-12-31');
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="disposal-register_2026-12-01_to_2026-12-31.csv"');
    expect(csv.text.split('\r\n')).toEqual([
      'date,product,generic_name,strength,lot_number,expiry_date,status_from,qty,unit,reason,method,witness,user,unit_cost,value_at_cost',
      '2026-12-02,Morphine 10mg,Morphine sulfate,10 mg,M-1,2027-02-28,recalled,14,piece,recalled,incineration,Juma Said (TMDA),Asha Mushi,1200.00,16800.00',
      "2026-12-02,Morphine 10mg,Morphine sulfate,10 mg,M-1,2027-02-28,recalled,2,piece,'=recalled,returned to MSD,'@Neema,Asha Mushi,1200.00,2400.00",
      '',
    ]);
  });

  it('refuses a product that is not controlled, another organisation’s product, a bad period, and staff without the permission', async () => {
    const otc = await newMedicine(t, owner, { name: 'Panadol 500mg' });
    const notControlled = await get(`/pharmacy/registers/controlled?product_id=${otc.id}`);
    expect(notControlled.status).toBe(422);
    expect(notControlled.body.errors[0]).toEqual({
      code: 'BUSINESS_RULE',
      field: 'product_id',
      message: 'Panadol 500mg is not a controlled medicine: it has no controlled-drug register',
    });
    const stranger = await registerOwner(t);
    const foreign = await get(`/pharmacy/registers/controlled?product_id=${med.id}`, stranger.token);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'product not found']);
    const missing = await get('/pharmacy/registers/controlled');
    expect([missing.status, missing.body.errors[0].field]).toEqual([400, 'product_id']);
    const backwards = await get(`/pharmacy/registers/controlled.csv?product_id=${med.id}&date_from=2026-12-05&date_to=2026-12-01`);
    expect([backwards.status, backwards.body.errors[0]]).toEqual([
      400,
      { code: 'VALIDATION_ERROR', field: 'date_from', message: 'must not be after date_to' },
    ]);
    const staff = await createStaff(t, owner);
    for (const path of [
      `/pharmacy/registers/controlled?product_id=${med.id}`,
      '/pharmacy/registers/disposals',
      '/pharmacy/registers/disposals.csv',
    ]) {
      const res = await get(path, staff.token);
      expect([res.status, res.body.message]).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    }
    await expectBatchesMatchStock(t, owner);
  });

  it('is in the OpenAPI document with its schemas', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    for (const [path, methods] of [
      ['/pharmacy/quarantine', ['get']],
      ['/pharmacy/quarantine/{id}/release', ['post']],
      ['/pharmacy/batches/{id}/dispose', ['post']],
      ['/pharmacy/recalls', ['get', 'post']],
      ['/pharmacy/recalls/{id}', ['get']],
      ['/pharmacy/registers/controlled', ['get']],
      ['/pharmacy/registers/controlled.csv', ['get']],
      ['/pharmacy/registers/disposals', ['get']],
      ['/pharmacy/registers/disposals.csv', ['get']],
    ] as const) {
      for (const method of methods) expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/pharmacy/recalls'].post.responses['201'].content['application/json'].schema.properties.data.$ref).toBe(
      '#/components/schemas/RecallDetail',
    );
    expect(Object.keys(doc.paths['/pharmacy/registers/controlled.csv'].get.responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(doc.components.schemas.ControlledRegisterLine.properties)).toEqual(
      expect.arrayContaining(['kind', 'qty', 'units', 'balance', 'lot_number', 'reference', 'user_name']),
    );
    expect(Object.keys(doc.components.schemas.DisposalRegisterLine.properties)).toEqual(
      expect.arrayContaining(['reason', 'method', 'witness', 'value_at_cost']),
    );
    expect(Object.keys(doc.components.schemas.RecallSale.properties)).toEqual(
      expect.arrayContaining(['receipt_number', 'customer_name', 'customer_phone', 'qty']),
    );
    expect(doc.components.schemas.QuarantineItem.properties.receipt_number).toBeDefined();
  });
});
