import { BootstrapResponse, Envelope, Organisation, PagedEnvelope, Product, PullResponse, Store } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/** The medicine fields of a product answer, for exact comparisons. */
const medicineOf = (p: Product) => ({
  generic_name: p.generic_name,
  strength: p.strength,
  dosage_form: p.dosage_form,
  schedule: p.schedule,
  track_batches: p.track_batches,
  expiry_alert_days: p.expiry_alert_days,
  effective_expiry_alert_days: p.effective_expiry_alert_days,
});

const NOT_A_MEDICINE = {
  generic_name: null,
  strength: null,
  dosage_form: null,
  schedule: null,
  track_batches: false,
  expiry_alert_days: null,
  effective_expiry_alert_days: null,
};

describe('pharmacy: medicine fields, the expiry alert default and outlet types', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const pharmacy = () =>
    registerOwner(t, { shop: { name: 'Famasia ya Upendo', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' } });
  const call = (s: Session, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
    t.request(method, path, { token: s.token, body });
  const create = async (s: Session, body: Record<string, unknown>) => {
    const res = await call(s, 'POST', '/inventory/products', { selling_price: 500, ...body });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const detail = async (s: Session, id: string) => Envelope(Product).parse((await call(s, 'GET', `/inventory/products/${id}`)).body).data;
  const listed = async (s: Session, id: string) => {
    const items = PagedEnvelope(Product).parse((await call(s, 'GET', '/inventory/products?page_size=100')).body).data;
    return items.find((p) => p.id === id)!;
  };
  const pull = async (s: Session, cursor?: string) => {
    const res = await call(s, 'GET', `/sync/pull${cursor ? `?cursor=${cursor}` : ''}`);
    expect(res.status, res.text).toBe(200);
    const data = Envelope(PullResponse).parse(res.body).data;
    expect(data.has_more).toBe(false);
    return data;
  };
  const pulledProduct = (changes: PullResponse['changes'], id: string) =>
    Product.parse(changes.find((c) => c.entity === 'product' && c.id === id)!.data);
  const productCount = async (orgId: string) =>
    Number(
      (
        await t.db.db
          .selectFrom('products')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates and updates a medicine with every field and reads it back exactly from detail, list, pull and bootstrap', async () => {
    const owner = await pharmacy();
    const { cursor } = await pull(owner);
    const made = await create(owner, {
      name: 'Panadol 500mg',
      generic_name: 'Paracetamol',
      strength: '500 mg',
      dosage_form: 'tablet',
      schedule: 'otc',
      track_batches: true,
      expiry_alert_days: 60,
    });
    const asMade = {
      generic_name: 'Paracetamol',
      strength: '500 mg',
      dosage_form: 'tablet',
      schedule: 'otc',
      track_batches: true,
      expiry_alert_days: 60,
      effective_expiry_alert_days: 60,
    };
    expect(medicineOf(made)).toEqual(asMade);
    expect(medicineOf(await detail(owner, made.id))).toEqual(asMade);
    expect(medicineOf(await listed(owner, made.id))).toEqual(asMade);
    const first = await pull(owner, cursor);
    expect(pulledProduct(first.changes, made.id)).toEqual(await detail(owner, made.id));

    const res = await call(owner, 'PATCH', `/inventory/products/${made.id}`, {
      generic_name: '  Amoxicillin ',
      strength: '250 mg/5 ml',
      dosage_form: 'suspension',
      schedule: 'pom',
      expiry_alert_days: null,
    });
    expect(res.status, res.text).toBe(200);
    const asUpdated = {
      generic_name: 'Amoxicillin',
      strength: '250 mg/5 ml',
      dosage_form: 'suspension',
      schedule: 'pom',
      track_batches: true,
      expiry_alert_days: null,
      effective_expiry_alert_days: 90,
    };
    expect(medicineOf(Envelope(Product).parse(res.body).data)).toEqual(asUpdated);
    expect(medicineOf(await detail(owner, made.id))).toEqual(asUpdated);
    expect(medicineOf(await listed(owner, made.id))).toEqual(asUpdated);
    const second = await pull(owner, first.cursor);
    expect(second.changes.map((c) => [c.entity, c.id])).toEqual([['product', made.id]]);
    expect(pulledProduct(second.changes, made.id)).toEqual(await detail(owner, made.id));

    const boot = Envelope(BootstrapResponse).parse((await call(owner, 'GET', '/sync/bootstrap')).body).data;
    expect(medicineOf(pulledProduct(boot.rows, made.id))).toEqual(asUpdated);
  });

  it('defaults: a scheduled product tracks batches, the alert window comes from the organisation and follows it', async () => {
    const owner = await pharmacy();
    const org = Envelope(Organisation).parse((await call(owner, 'GET', '/accounts/organisation')).body).data;
    expect(org.expiry_alert_days).toBe(90);

    const amoxil = await create(owner, { name: 'Amoxil 250mg', generic_name: 'amoxicillin', schedule: 'pom' });
    expect(medicineOf(amoxil)).toEqual({
      ...NOT_A_MEDICINE,
      generic_name: 'amoxicillin',
      schedule: 'pom',
      track_batches: true,
      effective_expiry_alert_days: 90,
    });
    const insulin = await create(owner, { name: 'Insulin', generic_name: 'insulin', schedule: 'pom', expiry_alert_days: 30 });
    expect([insulin.track_batches, insulin.expiry_alert_days, insulin.effective_expiry_alert_days]).toEqual([true, 30, 30]);
    const optedOut = await create(owner, {
      name: 'ORS sachet',
      generic_name: 'oral rehydration salts',
      schedule: 'otc',
      track_batches: false,
    });
    expect([optedOut.track_batches, optedOut.effective_expiry_alert_days]).toEqual([false, null]);
    // A mixed shop's product opted in later: getting a schedule turns batch tracking on.
    const soap = await create(owner, { name: 'Dettol soap' });
    const became = await call(owner, 'PATCH', `/inventory/products/${soap.id}`, { generic_name: 'chloroxylenol', schedule: 'otc' });
    expect(medicineOf(Envelope(Product).parse(became.body).data)).toEqual({
      ...NOT_A_MEDICINE,
      generic_name: 'chloroxylenol',
      schedule: 'otc',
      track_batches: true,
      effective_expiry_alert_days: 90,
    });
    // Leaving it a medicine without naming track_batches does not turn tracking back on for the opted-out one.
    const still = await call(owner, 'PATCH', `/inventory/products/${optedOut.id}`, { schedule: 'pom' });
    expect(Envelope(Product).parse(still.body).data.track_batches).toBe(false);

    const { cursor } = await pull(owner);
    const patched = await call(owner, 'PATCH', '/accounts/organisation', { expiry_alert_days: 120 });
    expect(patched.status, patched.text).toBe(200);
    expect(Envelope(Organisation).parse(patched.body).data.expiry_alert_days).toBe(120);
    expect((await detail(owner, amoxil.id)).effective_expiry_alert_days).toBe(120);
    expect((await detail(owner, soap.id)).effective_expiry_alert_days).toBe(120);
    expect((await detail(owner, insulin.id)).effective_expiry_alert_days).toBe(30);
    expect((await detail(owner, optedOut.id)).effective_expiry_alert_days).toBe(null);
    expect((await listed(owner, amoxil.id)).effective_expiry_alert_days).toBe(120);

    // Tills pull the organisation and exactly the products that follow its default.
    const after = await pull(owner, cursor);
    expect(after.changes.map((c) => [c.entity, c.id]).sort()).toEqual(
      [
        ['organisation', owner.orgId],
        ['product', amoxil.id],
        ['product', soap.id],
      ].sort(),
    );
    expect(pulledProduct(after.changes, amoxil.id).effective_expiry_alert_days).toBe(120);
    expect(after.changes.find((c) => c.entity === 'organisation')!.data).toMatchObject({ expiry_alert_days: 120 });

    // The same value again changes nothing a till must fetch beyond the organisation.
    await call(owner, 'PATCH', '/accounts/organisation', { expiry_alert_days: 120 });
    expect((await pull(owner, after.cursor)).changes.map((c) => c.entity)).toEqual(['organisation']);
  });

  it('a product that is not a medicine answers every medicine field empty', async () => {
    const owner = await registerOwner(t);
    const sugar = await create(owner, { name: 'Sukari 1kg', stock: 10 });
    expect(medicineOf(sugar)).toEqual(NOT_A_MEDICINE);
    expect(medicineOf(await detail(owner, sugar.id))).toEqual(NOT_A_MEDICINE);
    const renamed = await call(owner, 'PATCH', `/inventory/products/${sugar.id}`, { name: 'Sukari 2kg', stock: 12 });
    expect(medicineOf(Envelope(Product).parse(renamed.body).data)).toEqual(NOT_A_MEDICINE);
    expect(Envelope(Product).parse(renamed.body).data.stock).toBe(12);
    // Batch tracking opted into on a non-medicine (baby formula) uses the organisation's window.
    const formula = await create(owner, { name: 'Lactogen', track_batches: true });
    expect(medicineOf(formula)).toEqual({ ...NOT_A_MEDICINE, track_batches: true, effective_expiry_alert_days: 90 });
  });

  it('refuses bad medicine values with a 400 naming the field, writing nothing', async () => {
    const owner = await pharmacy();
    const medicine = await create(owner, { name: 'Panadol', generic_name: 'paracetamol', schedule: 'otc' });
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ schedule: 'prescription' }, 'schedule'],
      [{ dosage_form: 'pill' }, 'dosage_form'],
      [{ expiry_alert_days: 0 }, 'expiry_alert_days'],
      [{ expiry_alert_days: 731 }, 'expiry_alert_days'],
      [{ expiry_alert_days: 1.5 }, 'expiry_alert_days'],
      [{ generic_name: '  ' }, 'generic_name'],
      [{ strength: 'x'.repeat(51) }, 'strength'],
      [{ track_batches: 'yes' }, 'track_batches'],
      [{ schedule: 'pom' }, 'generic_name', 'generic_name is required for a medicine (a product with a schedule)'],
      [
        { generic_name: 'x', schedule: 'otc', is_service: true },
        'schedule',
        'schedule must be null for a service: a service is not a medicine',
      ],
      [{ track_batches: true, is_service: true }, 'track_batches', 'track_batches must be false for a service: a service has no stock'],
      [
        { generic_name: 'x', schedule: 'otc', stock: 5 },
        'stock',
        'stock must come from a delivery with lot and expiry for a batch-tracked product',
      ],
    ];
    const before = await productCount(owner.orgId);
    for (const [body, field, message] of cases) {
      const res = await call(owner, 'POST', '/inventory/products', { name: 'Bad', selling_price: 100, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field })]);
      if (message) expect(res.body.message).toBe(message);
    }
    expect(await productCount(owner.orgId)).toBe(before);

    const patches: Array<[Record<string, unknown>, string, string]> = [
      [{ generic_name: null }, 'generic_name', 'is required for a medicine (a product with a schedule)'],
      [{ is_service: true }, 'schedule', 'must be null for a service: a service is not a medicine'],
      [{ stock: 3 }, 'stock', 'must come from a delivery with lot and expiry for a batch-tracked product'],
    ];
    const stored = await detail(owner, medicine.id);
    for (const [body, field, message] of patches) {
      const res = await call(owner, 'PATCH', `/inventory/products/${medicine.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field, message }]);
      expect(res.body.message).toBe(`${field} ${message}`);
    }
    expect(await detail(owner, medicine.id)).toEqual(stored);

    for (const value of [0, 731, '90', null]) {
      const res = await call(owner, 'PATCH', '/accounts/organisation', { expiry_alert_days: value });
      expect(res.status, String(value)).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'expiry_alert_days' })]);
    }
    expect(Envelope(Organisation).parse((await call(owner, 'GET', '/accounts/organisation')).body).data.expiry_alert_days).toBe(90);
  });

  it('refuses to switch batch tracking while a store holds stock (422), and allows it at zero', async () => {
    const owner = await registerOwner(t);
    const soap = await create(owner, { name: 'Dettol soap', stock: 4 });
    const refused = await call(owner, 'PATCH', `/inventory/products/${soap.id}`, { generic_name: 'chloroxylenol', schedule: 'otc' });
    expect(refused.status).toBe(422);
    const message = 'track_batches cannot change while a store holds stock of this product; bring its stock to 0 first';
    expect(refused.body).toMatchObject({ success: false, message, errors: [{ code: 'BUSINESS_RULE', field: 'track_batches', message }] });
    expect(medicineOf(await detail(owner, soap.id))).toEqual(NOT_A_MEDICINE);

    expect((await call(owner, 'PATCH', `/inventory/products/${soap.id}`, { stock: 0 })).status).toBe(200);
    const became = await call(owner, 'PATCH', `/inventory/products/${soap.id}`, { generic_name: 'chloroxylenol', schedule: 'otc' });
    expect(became.status, became.text).toBe(200);
    expect(Envelope(Product).parse(became.body).data).toMatchObject({ schedule: 'otc', track_batches: true, stock: 0 });
  });

  it("answers another organisation's product as 404 whatever the medicine fields", async () => {
    const owner = await pharmacy();
    const other = await pharmacy();
    const theirs = await create(other, { name: 'Panadol', generic_name: 'paracetamol', schedule: 'otc' });
    const res = await call(owner, 'PATCH', `/inventory/products/${theirs.id}`, { schedule: 'controlled' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('product not found');
    expect((await detail(other, theirs.id)).schedule).toBe('otc');
  });

  it('opens an ADDO store, changes its outlet type, refuses an unknown one, and a till pulls it', async () => {
    const owner = await pharmacy();
    const opened = await call(owner, 'POST', '/stores', { name: 'Duka la Dawa Muhimbili', outlet_type: 'addo' });
    expect(opened.status, opened.text).toBe(200);
    const addo = Envelope(Store).parse(opened.body).data;
    expect(addo.outlet_type).toBe('addo');
    expect(Envelope(Store).parse((await call(owner, 'GET', `/stores/${addo.id}`)).body).data.outlet_type).toBe('addo');
    const plain = Envelope(Store).parse((await call(owner, 'POST', '/stores', { name: 'Tawi la Pili' })).body).data;
    expect(plain.outlet_type).toBe(null);

    const bad = await call(owner, 'PATCH', `/stores/${addo.id}`, { outlet_type: 'clinic' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'outlet_type' })]);
    const cleared = await call(owner, 'PATCH', `/stores/${addo.id}`, { outlet_type: null });
    expect(Envelope(Store).parse(cleared.body).data.outlet_type).toBe(null);

    const { cursor } = await pull(owner);
    const own = await call(owner, 'PATCH', `/stores/${owner.storeId}`, { outlet_type: 'pharmacy' });
    expect(Envelope(Store).parse(own.body).data.outlet_type).toBe('pharmacy');
    const changes = (await pull(owner, cursor)).changes;
    expect(changes.map((c) => [c.entity, c.id])).toEqual([['store', owner.storeId]]);
    expect(Store.parse(changes[0]!.data).outlet_type).toBe('pharmacy');
  });

  it('documents every field in the OpenAPI schemas and lists outlet types from the enum', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const schema = (name: string) => doc.components.schemas[name];
    // A nullable enum is documented as its values plus null.
    const enumOf = (s: any) => s.enum ?? s.anyOf?.find((x: any) => x.enum)?.enum;
    expect(Object.keys(schema('Product').properties)).toEqual(
      expect.arrayContaining([
        'generic_name',
        'strength',
        'dosage_form',
        'schedule',
        'track_batches',
        'expiry_alert_days',
        'effective_expiry_alert_days',
      ]),
    );
    expect(enumOf(schema('Product').properties.schedule)).toEqual(['otc', 'pom', 'controlled', null]);
    expect(enumOf(schema('CreateProductInput').properties.dosage_form)).toEqual([
      'tablet',
      'capsule',
      'syrup',
      'suspension',
      'injection',
      'cream',
      'ointment',
      'drops',
      'inhaler',
      'suppository',
      'powder',
      'other',
      null,
    ]);
    expect(schema('UpdateProductInput').properties.expiry_alert_days).toMatchObject({
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 730,
    });
    expect(enumOf(schema('Store').properties.outlet_type)).toEqual(['pharmacy', 'addo', null]);
    expect(enumOf(schema('UpdateStoreInput').properties.outlet_type)).toEqual(['pharmacy', 'addo', null]);
    expect(schema('Organisation').properties.expiry_alert_days).toMatchObject({ type: 'integer' });
    expect(schema('UpdateOrganisationInput').properties.expiry_alert_days).toMatchObject({ type: 'integer', minimum: 1, maximum: 730 });
    const types = (await t.request('GET', '/meta/outlet-types')).body.data;
    expect(types).toEqual([
      { slug: 'pharmacy', name: 'Pharmacy' },
      { slug: 'addo', name: 'Accredited Drug Dispensing Outlet (ADDO / DLDM)' },
    ]);
  });
});
