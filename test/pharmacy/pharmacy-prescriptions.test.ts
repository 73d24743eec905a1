import { Envelope, newId, PagedEnvelope, PageMeta, PrescriptionEntry, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, mfaAdminToken, registerOwner, type Session } from '../setup/factories.js';
import { batchRows, newMedicine, PRESCRIPTION, receiveLots } from '../setup/pharmacy-factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { localDate, localTime } from '../../server/src/lib/time.js';

const TZ = 'Africa/Dar_es_Salaam';
const DAY = 86_400_000;
const amoxil = {
  name: 'Amoxil 250mg',
  generic_name: 'Amoxicillin',
  strength: '250 mg',
  dosage_form: 'capsule',
  schedule: 'pom',
  selling_price: 500,
} as const;
const morphine = {
  name: 'Morphine 10mg',
  generic_name: 'Morphine',
  strength: '10 mg',
  dosage_form: 'injection',
  schedule: 'controlled',
  selling_price: 4000,
} as const;
const panadol = {
  name: 'Panadol',
  generic_name: 'Paracetamol',
  strength: '500 mg',
  dosage_form: 'tablet',
  schedule: 'otc',
  selling_price: 200,
} as const;
const soap = { name: 'Sabuni', selling_price: 1500 } as const;

describe('pharmacy: prescriptions on sales, the prescription register and the ADDO rule', () => {
  let t: TestApp;
  let owner: Session;
  let cashier: Awaited<ReturnType<typeof createStaff>>;
  const p: Record<string, { id: string; name: string }> = {};
  const call = (token: string, method: string, path: string, body?: unknown) => t.request(method, path, { token, body });
  const product = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await call(s.token, 'POST', '/inventory/products', { stock: 50, track_batches: false, ...body });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name: string };
  };
  const sell = (token: string, body: Record<string, unknown>) => call(token, 'POST', '/pos/sale', { payment_method: 'Cash', ...body });
  const stockOf = async (id: string, token = owner.token) =>
    (await call(token, 'GET', `/inventory/products/${id}`)).body.data.stock as number;
  const register = async (query = '', token = owner.token) => {
    const res = await call(token, 'GET', `/pharmacy/prescriptions${query}`);
    expect(res.status, res.text).toBe(200);
    const page = PagedEnvelope(PrescriptionEntry).parse(res.body);
    return { data: page.data, meta: PageMeta.parse(page.meta) };
  };
  const entry = async (id: string, token = owner.token) =>
    Envelope(PrescriptionEntry).parse((await call(token, 'GET', `/pharmacy/prescriptions/${id}`)).body).data;
  let device = '';
  let seq = 0;
  const push = async (
    token: string,
    lines: Array<{ product_id: string; qty: number; unit_price: number }>,
    extra: Record<string, unknown> = {},
    at = t.clock.now() - 60_000,
  ) => {
    seq += 1;
    const m = {
      id: newId(),
      seq,
      type: 'sale.create',
      created_at: new Date(at).toISOString(),
      payload: { id: newId(), client_receipt_number: `T1-${seq}`, lines, payment_method: 'Cash', ...extra },
    };
    const res = await t.request('POST', '/sync/push', { token, body: { device_id: device, mutations: [m] } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data.results[0]!;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t, {
      shop: { name: 'Duka la Dawa Mwenge', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    cashier = await createStaff(t, owner);
    for (const [key, body] of Object.entries({ amoxil, morphine, panadol, soap })) p[key] = await product(owner, body);
    device = newId();
    expect((await call(owner.token, 'POST', '/sync/devices', { device_id: device, name: 'Till 1' })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('refuses a prescription medicine sold without a prescription (422 naming the line), writing nothing', async () => {
    const before = await t.db.db.selectFrom('stores').select('last_number').where('id', '=', owner.storeId).executeTakeFirstOrThrow();
    const res = await sell(owner.token, {
      lines: [
        { product_id: p.soap!.id, qty: 1 },
        { product_id: p.amoxil!.id, qty: 2 },
      ],
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors).toEqual([
      {
        code: 'PRESCRIPTION_REQUIRED',
        field: 'lines.1.product_id',
        message: 'Amoxil 250mg is prescription-only: the sale needs a prescription',
      },
    ]);
    const controlled = await sell(owner.token, {
      lines: [
        { product_id: p.panadol!.id, qty: 1 },
        { product_id: p.morphine!.id, qty: 1 },
      ],
    });
    expect(controlled.status).toBe(422);
    expect(controlled.body.errors[0]).toEqual({
      code: 'PRESCRIPTION_REQUIRED',
      field: 'lines.1.product_id',
      message: 'Morphine 10mg is a controlled medicine: the sale needs a prescription',
    });
    const noAge = await sell(owner.token, {
      lines: [{ product_id: p.amoxil!.id, qty: 1 }],
      prescription: { ...PRESCRIPTION, patient_age: undefined },
    });
    expect(noAge.status).toBe(400);
    expect(noAge.body.errors).toEqual([
      { code: 'VALIDATION_ERROR', field: 'prescription.patient_age', message: "the prescription needs the patient's age or date of birth" },
    ]);

    expect([await stockOf(p.soap!.id), await stockOf(p.amoxil!.id), await stockOf(p.morphine!.id), await stockOf(p.panadol!.id)]).toEqual([
      50, 50, 50, 50,
    ]);
    expect(await t.db.db.selectFrom('stores').select('last_number').where('id', '=', owner.storeId).executeTakeFirstOrThrow()).toEqual(
      before,
    );
    expect(await t.db.db.selectFrom('transactions').select('id').where('store_id', '=', owner.storeId).execute()).toEqual([]);
    expect(await t.db.db.selectFrom('prescriptions').select('id').execute()).toEqual([]);
    // An over-the-counter medicine needs none and writes no register entry.
    expect((await sell(owner.token, { lines: [{ product_id: p.panadol!.id, qty: 1 }] })).status).toBe(201);
    expect((await register()).meta.total).toBe(0);
  });

  it('books a sale with a prescription (201) and writes one register entry of its prescription medicines', async () => {
    const res = await sell(owner.token, {
      lines: [
        { product_id: p.morphine!.id, qty: 1 },
        { product_id: p.soap!.id, qty: 1 },
        { product_id: p.amoxil!.id, qty: 2 },
        { product_id: p.panadol!.id, qty: 1 },
        { product_id: p.amoxil!.id, qty: 1 },
      ],
      prescription: PRESCRIPTION,
    });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    expect([await stockOf(p.amoxil!.id), await stockOf(p.morphine!.id)]).toEqual([47, 49]);
    const { data, meta } = await register();
    expect(meta).toEqual({ page: 1, page_size: 20, total: 1, total_pages: 1 });
    const item = (body: typeof amoxil | typeof morphine, id: string, qty: number) => ({
      product_id: id,
      product_name: body.name,
      generic_name: body.generic_name,
      strength: body.strength,
      dosage_form: body.dosage_form,
      schedule: body.schedule,
      qty,
      lots: [],
    });
    expect(data).toEqual([
      {
        id: data[0]!.id,
        store_id: owner.storeId,
        transaction_id: sale.id,
        receipt_number: sale.receipt_number,
        sale_status: 'paid',
        dispensed_at: sale.created_at,
        prescription: { ...PRESCRIPTION, patient_date_of_birth: null },
        items: [item(morphine, p.morphine!.id, 1), item(amoxil, p.amoxil!.id, 3)],
        corrects_id: null,
        correction_reason: null,
        corrected_by_id: null,
        recorded_by_id: owner.userId,
        recorded_by_name: 'Asha Mushi',
        created_at: sale.created_at,
      },
    ]);
    expect(await entry(data[0]!.id)).toEqual(data[0]);
    // A void sale keeps its entry, which answers the sale as it stands.
    const voided = await call(owner.token, 'POST', `/pos/transactions/${sale.id}/void`, { reason: 'wrong patient' });
    expect(voided.status, voided.text).toBe(200);
    expect(await entry(data[0]!.id)).toEqual({ ...data[0], sale_status: 'void' });
  });

  it('an item answers the lots its sale line took (FEFO, across two lots), read from the sale', async () => {
    const tracked = await newMedicine(t, owner, {
      name: 'Augmentin 625',
      generic_name: 'Amoxicillin/clavulanate',
      strength: '625 mg',
      dosage_form: 'tablet',
      schedule: 'pom',
    });
    await receiveLots(t, owner, [
      { product_id: tracked.id, lot_number: 'AUG-2709', expiry_date: '2027-09-30', qty: 10 },
      { product_id: tracked.id, lot_number: 'AUG-2703', expiry_date: '2027-03-31', qty: 2 },
    ]);
    const res = await sell(owner.token, {
      lines: [{ product_id: tracked.id, qty: 3 }],
      prescription: { ...PRESCRIPTION, patient_name: 'Lots Test' },
    });
    expect(res.status, res.text).toBe(201);
    const ids = Object.fromEntries((await batchRows(t, owner.storeId, tracked.id)).map((b) => [b.lot_number, b.id]));
    const [listed] = (await register('?patient=lots%20test')).data;
    expect(listed!.items.map((i) => [i.product_name, i.qty, i.lots])).toEqual([
      [
        'Augmentin 625',
        3,
        [
          { batch_id: ids['AUG-2703'], lot_number: 'AUG-2703', expiry_date: '2027-03-31', qty: 2 },
          { batch_id: ids['AUG-2709'], lot_number: 'AUG-2709', expiry_date: '2027-09-30', qty: 1 },
        ],
      ],
    ]);
  });

  it('books an offline sale pushed without a prescription, with a prescription conflict, a notification and an entry to complete', async () => {
    const result = await push(cashier.token, [{ product_id: p.amoxil!.id, qty: 1, unit_price: 500 }], { cashier_id: cashier.user.id });
    expect(result.status).toBe('applied');
    expect(result.conflicts).toEqual([
      { kind: 'prescription', product_id: p.amoxil!.id, message: 'Amoxil 250mg is prescription-only: the sale needs a prescription' },
    ]);
    const receipt = result.result!.receipt_number as string;
    expect(await stockOf(p.amoxil!.id)).toBe(49);
    const conflicts = (await call(owner.token, 'GET', '/sync/conflicts?kind=prescription')).body;
    expect(conflicts.meta.total).toBe(1);
    expect(conflicts.data[0]).toMatchObject({
      kind: 'prescription',
      device_id: device,
      transaction_id: result.result!.transaction_id,
      product_id: p.amoxil!.id,
      resolved: false,
    });
    const notes = (await call(owner.token, 'GET', '/notifications?category=sales')).body.data.notifications as Array<{
      title: string;
      body: string;
    }>;
    expect(notes.filter((n) => n.title.includes(receipt)).map((n) => [n.title, n.body])).toEqual([
      [`Offline sale ${receipt} needs a look: prescription`, 'Amoxil 250mg is prescription-only: the sale needs a prescription'],
    ]);
    const [incomplete] = (await register()).data.filter((e) => e.transaction_id === result.result!.transaction_id);
    expect(incomplete).toMatchObject({
      prescription: null,
      receipt_number: receipt,
      recorded_by_id: cashier.user.id,
      recorded_by_name: 'Juma Ali',
      items: [{ product_id: p.amoxil!.id, qty: 1 }],
    });
    const completed = await call(owner.token, 'POST', `/pharmacy/prescriptions/${incomplete!.id}/corrections`, {
      prescription: PRESCRIPTION,
      reason: 'prescription seen after the till came back online',
    });
    expect(completed.status, completed.text).toBe(201);
    expect(completed.body.data).toMatchObject({
      corrects_id: incomplete!.id,
      prescription: { ...PRESCRIPTION, patient_date_of_birth: null },
      items: incomplete!.items,
    });
  });

  it('corrections: a new entry each, pointing at the one it corrects; the original stays as it was', async () => {
    const sold = await sell(owner.token, {
      lines: [{ product_id: p.morphine!.id, qty: 1 }],
      prescription: { ...PRESCRIPTION, patient_name: 'Hamisi Said', patient_age: 61, patient_sex: 'male' },
    });
    const [original] = (await register('?patient=hamisi')).data;
    const fixed = {
      ...PRESCRIPTION,
      patient_name: 'Hamisi Saidi',
      patient_age: undefined,
      patient_date_of_birth: '1964-03-02',
      patient_sex: 'male',
    };
    const first = await call(cashier.token, 'POST', `/pharmacy/prescriptions/${original!.id}/corrections`, {
      prescription: fixed,
      reason: 'name misspelt',
    });
    expect(first.status).toBe(403);
    const res = await call(owner.token, 'POST', `/pharmacy/prescriptions/${original!.id}/corrections`, {
      prescription: fixed,
      reason: 'name misspelt',
    });
    expect(res.status, res.text).toBe(201);
    const correction = Envelope(PrescriptionEntry).parse(res.body).data;
    expect(correction).toEqual({
      ...original!,
      id: correction.id,
      prescription: { ...fixed, patient_age: null },
      corrects_id: original!.id,
      correction_reason: 'name misspelt',
      corrected_by_id: null,
      recorded_by_id: owner.userId,
      recorded_by_name: 'Asha Mushi',
    });
    expect(correction.transaction_id).toBe(sold.body.data.id);
    expect(await entry(original!.id)).toEqual({ ...original!, corrected_by_id: correction.id });
    const twice = await call(owner.token, 'POST', `/pharmacy/prescriptions/${original!.id}/corrections`, {
      prescription: PRESCRIPTION,
      reason: 'again',
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      message: `this entry was already corrected by entry ${correction.id}: correct that one`,
      errors: [{ code: 'INVALID_STATE' }],
    });
    const future = await call(owner.token, 'POST', `/pharmacy/prescriptions/${correction.id}/corrections`, {
      prescription: { ...fixed, date_written: '2099-01-01' },
      reason: 'date',
    });
    expect(future.status).toBe(400);
    expect(future.body.errors[0]).toMatchObject({ field: 'prescription.date_written' });
    const noReason = await call(owner.token, 'POST', `/pharmacy/prescriptions/${correction.id}/corrections`, {
      prescription: fixed,
      reason: ' ',
    });
    expect([noReason.status, noReason.body.errors[0].field]).toEqual([400, 'reason']);
    const second = await call(owner.token, 'POST', `/pharmacy/prescriptions/${correction.id}/corrections`, {
      prescription: { ...fixed, facility: 'Amana Hospital' },
      reason: 'facility',
    });
    expect(second.body.data).toMatchObject({ corrects_id: correction.id, prescription: { facility: 'Amana Hospital' } });
    expect((await register('?patient=hamisi')).data.map((e) => [e.id, e.corrects_id, e.corrected_by_id])).toEqual([
      [second.body.data.id, correction.id, null],
      [correction.id, original!.id, second.body.data.id],
      [original!.id, null, correction.id],
    ]);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'description'])
      .where('action', '=', 'pharmacy.prescription.correct')
      .where('org_id', '=', owner.orgId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audit.filter((a) => a.description.includes(sold.body.data.receipt_number)).map((a) => a.entity_id)).toEqual([
      correction.id,
      second.body.data.id,
    ]);
  });

  it('the staff without the pharmacy permission are refused the register; another store or organisation finds nothing', async () => {
    const [any] = (await register()).data;
    const paths = [
      ['GET', '/pharmacy/prescriptions'],
      ['GET', '/pharmacy/prescriptions.csv'],
      ['GET', `/pharmacy/prescriptions/${any!.id}`],
      ['POST', `/pharmacy/prescriptions/${any!.id}/corrections`],
    ] as const;
    for (const [method, path] of paths) {
      const body = method === 'POST' ? { prescription: PRESCRIPTION, reason: 'x' } : undefined;
      const res = await call(cashier.token, method, path, body);
      expect([res.status, res.body?.message], path).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    }
    // Another organisation's owner reading or correcting this entry by id (404), and no token: test/api/access-rules.test.ts.
    const other = await registerOwner(t);
    expect((await register('', other.token)).meta.total).toBe(0);
    const branch = await addStore(t, owner.orgId, 'Tawi la Sinza');
    const switched = await call(owner.token, 'POST', '/accounts/switch-store', { store_id: branch.id });
    const elsewhere = switched.body.data.tokens.access_token as string;
    const res = await call(elsewhere, 'GET', `/pharmacy/prescriptions/${any!.id}`);
    expect([res.status, res.body.message]).toEqual([404, 'prescription not found']);
    expect(
      (await call(elsewhere, 'POST', `/pharmacy/prescriptions/${any!.id}/corrections`, { prescription: PRESCRIPTION, reason: 'x' })).status,
    ).toBe(404);
    expect((await register('', elsewhere)).meta.total).toBe(0);
  });
  it('is in the OpenAPI document with its schemas', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/pharmacy/prescriptions', 'get'],
      ['/pharmacy/prescriptions.csv', 'get'],
      ['/pharmacy/prescriptions/{id}', 'get'],
      ['/pharmacy/prescriptions/{id}/corrections', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/pharmacy/prescriptions/{id}/corrections'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CorrectPrescriptionInput',
    );
    expect(Object.keys(doc.paths['/pharmacy/prescriptions.csv'].get.responses['200'].content)).toEqual(['text/csv']);
    expect(doc.paths['/pharmacy/prescriptions'].get.parameters.map((q: { name: string }) => q.name).sort()).toEqual([
      'date_from',
      'date_to',
      'page',
      'page_size',
      'patient',
      'prescriber',
      'product_id',
    ]);
    expect(Object.keys(doc.components.schemas.PrescriptionEntry.properties).sort()).toEqual([
      'corrected_by_id',
      'correction_reason',
      'corrects_id',
      'created_at',
      'dispensed_at',
      'id',
      'items',
      'prescription',
      'receipt_number',
      'recorded_by_id',
      'recorded_by_name',
      'sale_status',
      'store_id',
      'transaction_id',
    ]);
    expect(doc.components.schemas.PrescriptionItem.properties.lots.items.$ref).toBe('#/components/schemas/LineBatch');
  });
});

describe('pharmacy: the register filters and CSV', () => {
  let t: TestApp;
  let owner: Session;
  const day = (offset: number) => localDate(t.clock.now() + offset * DAY, TZ);
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t, {
      shop: { name: 'Famasia Upanga', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' },
    });
  });
  afterAll(() => t.close());

  it('filters by dispensing day, product, patient and prescriber, and exports every match as CSV, one row per medicine', async () => {
    const mk = async (body: Record<string, unknown>) =>
      (await t.request('POST', '/inventory/products', { token: owner.token, body: { stock: 50, track_batches: false, ...body } })).body
        .data as { id: string };
    const amox = await mk(amoxil);
    const morph = await mk(morphine);
    const device = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: device, name: 'Till 1' } });
    const at = [t.clock.now() - 3 * DAY, t.clock.now() - 2 * DAY, t.clock.now() - 60_000];
    const rxs = [
      { ...PRESCRIPTION, patient_name: 'Zawadi Mrema', prescriber_name: 'Dr. Ally Nassoro', prescriber_registration_number: 'MCT-1001' },
      {
        ...PRESCRIPTION,
        patient_name: '=HYPERLINK("http://evil.example","x")',
        patient_age: undefined,
        patient_date_of_birth: '2019-05-04',
        prescriber_name: 'Dr. Grace Kimaro',
        prescriber_registration_number: 'MCT-2002',
        facility: 'Muhimbili, Ward 3',
      },
      { ...PRESCRIPTION, patient_name: 'zawadi ally', prescriber_name: 'Dr. Peter Lyimo', prescriber_registration_number: 'TMDA-77' },
    ];
    const lines = [
      [{ product_id: amox.id, qty: 2, unit_price: 500 }],
      [
        { product_id: morph.id, qty: 1, unit_price: 4000 },
        { product_id: amox.id, qty: 1, unit_price: 500 },
      ],
      [{ product_id: morph.id, qty: 3, unit_price: 4000 }],
    ];
    const receipts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = {
        id: newId(),
        seq: i + 1,
        type: 'sale.create',
        created_at: new Date(at[i]!).toISOString(),
        payload: { id: newId(), client_receipt_number: `T1-${i + 1}`, lines: lines[i], payment_method: 'Cash', prescription: rxs[i] },
      };
      const res = Envelope(PushResponse).parse(
        (await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: device, mutations: [m] } })).body,
      ).data.results[0]!;
      expect([res.status, res.conflicts ?? []]).toEqual(['applied', []]);
      receipts.push(res.result!.receipt_number as string);
    }
    const names = async (query: string) => {
      const res = await t.request('GET', `/pharmacy/prescriptions${query}`, { token: owner.token });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as PrescriptionEntry[]).map((e) => e.receipt_number);
    };
    expect(await names('')).toEqual([receipts[2], receipts[1], receipts[0]]);
    expect(await names(`?date_from=${day(-2)}`)).toEqual([receipts[2], receipts[1]]);
    expect(await names(`?date_to=${day(-2)}`)).toEqual([receipts[1], receipts[0]]);
    expect(await names(`?date_from=${day(-3)}&date_to=${day(-3)}`)).toEqual([receipts[0]]);
    expect(await names(`?product_id=${morph.id}`)).toEqual([receipts[2], receipts[1]]);
    expect(await names('?patient=ZAWADI')).toEqual([receipts[2], receipts[0]]);
    expect(await names('?prescriber=kimaro')).toEqual([receipts[1]]);
    expect(await names('?prescriber=tmda')).toEqual([receipts[2]]);
    expect(await names(`?prescriber=mct&product_id=${amox.id}`)).toEqual([receipts[1], receipts[0]]);
    const paged = await t.request('GET', '/pharmacy/prescriptions?page=2&page_size=2', { token: owner.token });
    expect([paged.body.data.map((e: PrescriptionEntry) => e.receipt_number), paged.body.meta]).toEqual([
      [receipts[0]],
      { page: 2, page_size: 2, total: 3, total_pages: 2 },
    ]);
    const backwards = await t.request('GET', `/pharmacy/prescriptions?date_from=${day(0)}&date_to=${day(-1)}`, { token: owner.token });
    expect([backwards.status, backwards.body.errors[0].field]).toEqual([400, 'date_to']);
    expect((await t.request('GET', '/pharmacy/prescriptions?product_id=nope', { token: owner.token })).body.errors[0].field).toBe(
      'product_id',
    );

    const csv = await t.request('GET', `/pharmacy/prescriptions.csv?date_from=${day(-3)}&prescriber=mct`, { token: owner.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="prescription-register_${day(-3)}_to_${day(0)}.csv"`);
    const entries = (await t.request('GET', '/pharmacy/prescriptions?prescriber=mct', { token: owner.token })).body
      .data as PrescriptionEntry[];
    const [second, first] = entries;
    const head =
      'entry_id,date,time,receipt_number,sale_status,patient_name,patient_age,patient_date_of_birth,patient_sex,prescriber_name,prescriber_registration_number,facility,date_written,product,generic_name,strength,dosage_form,schedule,qty,lots,corrects_id,corrected_by_id,correction_reason,recorded_by';
    const when = (i: number) => `${localDate(at[i]!, TZ)},${localTime(at[i]!, TZ)}`;
    expect(csv.text).toBe(
      [
        head,
        `${first!.id},${when(0)},${receipts[0]},paid,Zawadi Mrema,34,,female,Dr. Ally Nassoro,MCT-1001,Mwananyamala Hospital,2026-01-10,Amoxil 250mg,Amoxicillin,250 mg,capsule,pom,2,,,,,Asha Mushi`,
        `${second!.id},${when(1)},${receipts[1]},paid,"'=HYPERLINK(""http://evil.example"",""x"")",,2019-05-04,female,Dr. Grace Kimaro,MCT-2002,"Muhimbili, Ward 3",2026-01-10,Morphine 10mg,Morphine,10 mg,injection,controlled,1,,,,,Asha Mushi`,
        `${second!.id},${when(1)},${receipts[1]},paid,"'=HYPERLINK(""http://evil.example"",""x"")",,2019-05-04,female,Dr. Grace Kimaro,MCT-2002,"Muhimbili, Ward 3",2026-01-10,Amoxil 250mg,Amoxicillin,250 mg,capsule,pom,1,,,,,Asha Mushi`,
        '',
      ].join('\r\n'),
    );
    expect(csvRecords(csv.text).records.map((r) => r.patient_name)).toEqual([
      'Zawadi Mrema',
      `'=HYPERLINK("http://evil.example","x")`,
      `'=HYPERLINK("http://evil.example","x")`,
    ]);
  });
});

describe('pharmacy: the ADDO rule on sales', () => {
  let t: TestApp;
  let owner: Session;
  let addoToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await mfaAdminToken(t);
    for (const body of [
      { generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule' },
      { generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' },
    ]) {
      expect((await t.request('POST', '/admin/pharmacy/addo-list', { token: admin.token, body })).status).toBe(201);
    }
    const listed = (await t.request('GET', '/admin/pharmacy/addo-list', { token: admin.token })).body.data as Array<{
      id: string;
      generic_name: string;
    }>;
    const para = listed.find((e) => e.generic_name === 'Paracetamol')!;
    expect((await t.request('DELETE', `/admin/pharmacy/addo-list/${para.id}`, { token: admin.token })).status).toBe(204);
    owner = await registerOwner(t, {
      shop: { name: 'Duka la Dawa Tegeta', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    const store = await t.request('PATCH', `/stores/${owner.storeId}`, { token: owner.token, body: { outlet_type: 'addo' } });
    expect(store.status, store.text).toBe(200);
    addoToken = owner.token;
  });
  afterAll(() => t.close());

  it('sells a listed medicine (matched ignoring case and spaces) and a non-medicine; refuses the rest with 422 naming the line', async () => {
    const mk = async (body: Record<string, unknown>) =>
      (await t.request('POST', '/inventory/products', { token: addoToken, body: { stock: 20, track_batches: false, ...body } })).body
        .data as { id: string };
    const listed = await mk({
      name: 'Amoxyl caps',
      generic_name: 'AMOXICILLIN',
      strength: '250MG',
      dosage_form: 'capsule',
      schedule: 'pom',
      selling_price: 500,
    });
    const cipro = await mk({
      name: 'Cipro 500',
      generic_name: 'Ciprofloxacin',
      strength: '500 mg',
      dosage_form: 'tablet',
      schedule: 'pom',
      selling_price: 900,
    });
    const removed = await mk({
      name: 'Panadol',
      generic_name: 'Paracetamol',
      strength: '500 mg',
      dosage_form: 'tablet',
      schedule: 'otc',
      selling_price: 200,
    });
    const noStrength = await mk({
      name: 'Amoxil syrup',
      generic_name: 'Amoxicillin',
      dosage_form: 'capsule',
      schedule: 'otc',
      selling_price: 300,
    });
    const soda = await mk({ name: 'Soda', selling_price: 1000 });
    const sell = (lines: Array<{ product_id: string; qty: number }>, extra: Record<string, unknown> = {}) =>
      t.request('POST', '/pos/sale', { token: addoToken, body: { lines, payment_method: 'Cash', ...extra } });

    expect((await sell([{ product_id: listed.id, qty: 1 }], { prescription: PRESCRIPTION })).status).toBe(201);
    expect((await sell([{ product_id: soda.id, qty: 1 }])).status).toBe(201);
    for (const [product, name] of [
      [cipro, 'Cipro 500'],
      [removed, 'Panadol'],
      [noStrength, 'Amoxil syrup'],
    ] as const) {
      // Not on the list: refused even with a prescription, and before the prescription is asked for.
      const res = await sell([
        { product_id: soda.id, qty: 1 },
        { product_id: product.id, qty: 1 },
      ]);
      expect([res.status, res.body.errors]).toEqual([
        422,
        [
          {
            code: 'NOT_PERMITTED_FOR_ADDO',
            field: 'lines.1.product_id',
            message: `${name} is not on the ADDO list: an ADDO may not sell it`,
          },
        ],
      ]);
    }
    const stock = async (id: string) =>
      (await t.request('GET', `/inventory/products/${id}`, { token: addoToken })).body.data.stock as number;
    expect([await stock(listed.id), await stock(soda.id), await stock(cipro.id), await stock(removed.id)]).toEqual([19, 19, 20, 20]);

    const device = newId();
    await t.request('POST', '/sync/devices', { token: addoToken, body: { device_id: device, name: 'Till 1' } });
    const m = {
      id: newId(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: 'T1-1',
        lines: [{ product_id: cipro.id, qty: 1, unit_price: 900 }],
        payment_method: 'Cash',
        prescription: PRESCRIPTION,
      },
    };
    const pushed = Envelope(PushResponse).parse(
      (await t.request('POST', '/sync/push', { token: addoToken, body: { device_id: device, mutations: [m] } })).body,
    ).data.results[0]!;
    expect([pushed.status, pushed.conflicts]).toEqual([
      'applied',
      [{ kind: 'not_permitted_for_addo', product_id: cipro.id, message: 'Cipro 500 is not on the ADDO list: an ADDO may not sell it' }],
    ]);
    expect(await stock(cipro.id)).toBe(19);
    const notes = (await t.request('GET', '/notifications?category=sales', { token: addoToken })).body.data.notifications as Array<{
      title: string;
    }>;
    expect(notes.map((n) => n.title)).toContain(`Offline sale ${pushed.result!.receipt_number} needs a look: not permitted for addo`);
  });
});
