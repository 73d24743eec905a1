import type { Prescription, PushRequest } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaAdminToken, registerOwner, type Session } from '../../test/setup/factories.js';
import { type ApiRequest, HttpConnector, localDate, NetworkError, type SellInput, type Till, TillError } from '@duka/client-sdk';
import { type Harness, openTill, startServer } from './harness.js';

interface Refusal {
  code: string;
  field?: string;
  message: string;
}

async function refusedByTill(action: Promise<unknown>): Promise<Refusal> {
  const err = await action.then(
    () => new Error('the till accepted it'),
    (e: unknown) => e,
  );
  if (!(err instanceof TillError)) throw err;
  return { code: err.code, field: err.field, message: err.message };
}

/** A pharmacy's medicines without batches (track_batches false), so these tests need no lots. */
interface Dispensary {
  owner: Session;
  panadol: { id: string };
  amoxil: { id: string };
  morphine: { id: string };
  soap: { id: string };
}

/** Tills of the pharmacy tests; the ADDO list is platform data, so the tests share one server and run in order. */
describe('the pharmacy till: prescriptions, the ADDO list and its refusals offline', () => {
  let h: Harness;
  let admin: { token: string };
  const tills: Till[] = [];
  beforeAll(async () => {
    h = await startServer();
    admin = await mfaAdminToken(h.t);
  });
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
  });

  const today = () => localDate(h.t.clock.now(), 'Africa/Dar_es_Salaam');
  const prescription = (): Prescription => ({
    patient_name: 'Neema Mushi',
    patient_age: 34,
    patient_sex: 'female',
    prescriber_name: 'Dr. Baraka Lyimo',
    prescriber_registration_number: 'MCT-4411',
    facility: 'Mwananyamala Hospital',
    date_written: today(),
  });
  const listAdd = async (body: Record<string, unknown>) => {
    const res = await h.t.request('POST', '/admin/pharmacy/addo-list', { token: admin.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string };
  };
  const listRemove = async (id: string) =>
    expect((await h.t.request('DELETE', `/admin/pharmacy/addo-list/${id}`, { token: admin.token })).status).toBe(204);

  async function dispensary(outlet: 'pharmacy' | 'addo'): Promise<Dispensary> {
    const owner = await registerOwner(h.t, {
      shop: { name: 'Dawa Bora', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' },
    });
    const store = await h.t.request('PATCH', `/stores/${owner.storeId}`, { token: owner.token, body: { outlet_type: outlet } });
    expect(store.status, store.text).toBe(200);
    const product = async (body: Record<string, unknown>) => {
      const res = await h.t.request('POST', '/inventory/products', { token: owner.token, body: { stock: 50, ...body } });
      expect(res.status, res.text).toBe(200);
      return res.body.data as { id: string };
    };
    const medicine = { track_batches: false };
    return {
      owner,
      panadol: await product({
        ...medicine,
        name: 'Panadol 500mg',
        selling_price: 1500,
        generic_name: 'Paracetamol',
        strength: '500 mg',
        dosage_form: 'tablet',
        schedule: 'otc',
      }),
      // Written unlike the ADDO list's entry ("Amoxicillin", "250 mg"): the match ignores case and spaces.
      amoxil: await product({
        ...medicine,
        name: 'Amoxil 250mg',
        selling_price: 3500,
        generic_name: 'AMOXICILLIN',
        strength: '250mg',
        dosage_form: 'capsule',
        schedule: 'pom',
      }),
      morphine: await product({
        ...medicine,
        name: 'Morphine 10mg',
        selling_price: 9000,
        generic_name: 'Morphine',
        strength: '10 mg',
        dosage_form: 'tablet',
        schedule: 'controlled',
      }),
      soap: await product({ name: 'Sabuni ya kuogea', selling_price: 800 }),
    };
  }

  /** A till of the shop, signed in and synced, optionally through its own connector. */
  async function tillOf(shop: Dispensary, connector?: HttpConnector): Promise<Till> {
    const till = await openTill(h, connector ? { connector } : {});
    tills.push(till);
    await till.login(shop.owner.phone, shop.owner.password);
    await till.syncNow();
    return till;
  }
  const listFetches = () => h.net.calls.filter((c) => c.startsWith('GET /pharmacy/addo-list')).length;

  describe('the ADDO list on an ADDO till', () => {
    it('arrives with the first sync, is fetched again only when its version moves, and is replaced whole', async () => {
      const para = await listAdd({ generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' }); // version 1
      const shop = await dispensary('addo');
      const fetchesBefore = listFetches();
      const till = await tillOf(shop);
      expect(listFetches() - fetchesBefore).toBe(1);
      const first = await till.addoList();
      expect(first.version).toBe(1);
      expect(first.entries.map((m) => [m.generic_name, m.strength, m.dosage_form])).toEqual([['Paracetamol', '500 mg', 'tablet']]);

      await till.syncNow();
      expect(listFetches() - fetchesBefore).toBe(1);

      await listAdd({ generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule' }); // 2
      await listRemove(para.id); // 3
      await till.syncNow();
      expect(listFetches() - fetchesBefore).toBe(2);
      const second = await till.addoList();
      expect(second.version).toBe(3);
      expect(second.entries.map((m) => [m.generic_name, m.strength, m.dosage_form])).toEqual([['Amoxicillin', '250 mg', 'capsule']]);
    });

    it('keeps the smallest version its pages carried, so a change made mid-fetch is fetched again', async () => {
      // List now (version 3): Amoxicillin 250 mg. Add one so the list spans two pages of one.
      await listAdd({ generic_name: 'Ciprofloxacin', strength: '500 mg', dosage_form: 'tablet' }); // 4
      let changeMidFetch = true;
      class OnePerPage extends HttpConnector {
        override async send<T, M>(r: ApiRequest, signal: AbortSignal) {
          if (r.path !== '/pharmacy/addo-list') return super.send<T, M>(r, signal);
          const page = await super.send<T, M>({ ...r, query: { ...r.query, page_size: 1 } }, signal);
          if (changeMidFetch && r.query?.page === 1) {
            changeMidFetch = false;
            await listAdd({ generic_name: 'Zinc sulphate', strength: '20 mg', dosage_form: 'tablet' }); // 5, sorts last
          }
          return page;
        }
      }
      const shop = await dispensary('addo');
      const till = await tillOf(shop, new OnePerPage({ baseUrl: h.base, fetch: h.net.fetch }));
      const fetched = await till.addoList();
      // Page 1 said version 4, pages 2 and 3 version 5: every entry, marked 4.
      expect(fetched.version).toBe(4);
      expect(fetched.entries.map((m) => m.generic_name)).toEqual(['Amoxicillin', 'Ciprofloxacin', 'Zinc sulphate']);
      await till.syncNow();
      expect((await till.addoList()).version).toBe(5);
    });

    it('is not fetched by a till whose store is not an ADDO', async () => {
      const shop = await dispensary('pharmacy');
      const before = listFetches();
      const till = await tillOf(shop);
      expect(listFetches()).toBe(before);
      expect(await till.addoList()).toEqual({ version: undefined, entries: [] });
    });
  });

  describe('refusals offline', () => {
    let pharmacy: Dispensary;
    let addo: Dispensary;
    let pharmacyTill: Till;
    let addoTill: Till;
    beforeAll(async () => {
      // The list now: Amoxicillin 250 mg capsule, Ciprofloxacin 500 mg, Zinc sulphate 20 mg.
      pharmacy = await dispensary('pharmacy');
      addo = await dispensary('addo');
      pharmacyTill = await tillOf(pharmacy);
      addoTill = await tillOf(addo);
      h.net.offline = true;
    });
    afterAll(() => void (h.net.offline = false));

    const cases: Array<{ name: string; addo?: true; sale: (s: Dispensary) => SellInput; refused: Refusal }> = [
      {
        name: 'a prescription-only medicine without a prescription, naming its line',
        sale: (s) => ({
          lines: [
            { product_id: s.soap.id, qty: 1 },
            { product_id: s.amoxil.id, qty: 1 },
          ],
          payment_method: 'Cash',
        }),
        refused: {
          code: 'PRESCRIPTION_REQUIRED',
          field: 'lines.1.product_id',
          message: 'Amoxil 250mg is prescription-only: the sale needs a prescription',
        },
      },
      {
        name: 'a controlled medicine without a prescription',
        sale: (s) => ({ lines: [{ product_id: s.morphine.id, qty: 2 }], payment_method: 'Cash' }),
        refused: {
          code: 'PRESCRIPTION_REQUIRED',
          field: 'lines.0.product_id',
          message: 'Morphine 10mg is a controlled medicine: the sale needs a prescription',
        },
      },
      {
        name: "a prescription without the patient's age or date of birth",
        sale: (s) => ({
          lines: [{ product_id: s.amoxil.id, qty: 1 }],
          payment_method: 'Cash',
          prescription: { ...prescription(), patient_age: undefined },
        }),
        refused: {
          code: 'VALIDATION_ERROR',
          field: 'prescription.patient_age',
          message: "the prescription needs the patient's age or date of birth",
        },
      },
      {
        name: 'a prescription dated after the sale',
        sale: (s) => ({
          lines: [{ product_id: s.amoxil.id, qty: 1 }],
          payment_method: 'Cash',
          prescription: { ...prescription(), date_written: '2999-01-01' },
        }),
        // The day of the sale on the till's (the server's test) clock, in the organisation's time zone.
        get refused() {
          return {
            code: 'VALIDATION_ERROR',
            field: 'prescription.date_written',
            message: `the prescription is dated 2999-01-01, after the day of the sale (${today()})`,
          };
        },
      },
      {
        name: 'a prescription without its prescriber (its schema, before any rule)',
        sale: (s) => ({
          lines: [{ product_id: s.amoxil.id, qty: 1 }],
          payment_method: 'Cash',
          prescription: { ...prescription(), prescriber_name: '' },
        }),
        refused: {
          code: 'VALIDATION_ERROR',
          field: 'prescription.prescriber_name',
          message: 'prescription.prescriber_name must be at least 1 characters',
        },
      },
      {
        name: 'in an ADDO, a medicine not on the list, naming its line',
        addo: true,
        sale: (s) => ({ lines: [{ product_id: s.panadol.id, qty: 1 }], payment_method: 'Cash' }),
        refused: {
          code: 'NOT_PERMITTED_FOR_ADDO',
          field: 'lines.0.product_id',
          message: 'Panadol 500mg is not on the ADDO list: an ADDO may not sell it',
        },
      },
      {
        name: 'in an ADDO, an unlisted controlled medicine without a prescription, for the list first (no prescription makes it sellable there)',
        addo: true,
        sale: (s) => ({ lines: [{ product_id: s.morphine.id, qty: 1 }], payment_method: 'Cash' }),
        refused: {
          code: 'NOT_PERMITTED_FOR_ADDO',
          field: 'lines.0.product_id',
          message: 'Morphine 10mg is not on the ADDO list: an ADDO may not sell it',
        },
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name} as the server does online, queueing nothing`, async () => {
        const till = c.addo ? addoTill : pharmacyTill;
        const pending = till.status().pending;
        const shop = c.addo ? addo : pharmacy;
        const online = await h.t.request('POST', '/pos/sale', { token: shop.owner.token, body: c.sale(shop) });
        expect(online.status).toBeGreaterThanOrEqual(400);
        expect({ code: online.body.errors[0].code, field: online.body.errors[0].field, message: online.body.message }).toEqual(c.refused);
        expect(await refusedByTill(till.sell(c.sale(shop)))).toEqual(c.refused);
        expect(till.status().pending).toBe(pending);
      });
    }

    it('in an ADDO, sells a listed medicine (with its prescription) and anything that is not a medicine, as the server does', async () => {
      const sale = {
        lines: [
          { product_id: addo.amoxil.id, qty: 2 },
          { product_id: addo.soap.id, qty: 1 },
        ],
        payment_method: 'Cash' as const,
        prescription: prescription(),
      };
      const online = await h.t.request('POST', '/pos/sale', { token: addo.owner.token, body: sale });
      expect(online.status, online.text).toBe(201);
      expect(online.body.data).toMatchObject({ total: 7800 });
      expect(await addoTill.sell(sale)).toMatchObject({ total: 7800, sync_state: 'pending' });
    });
  });

  it('an ADDO till that could not fetch the list refuses medicines (but not soap) until it has it', async () => {
    const shop = await dispensary('addo');
    let listDown = true;
    class ListDown extends HttpConnector {
      override async send<T, M>(r: ApiRequest, signal: AbortSignal) {
        if (listDown && r.path === '/pharmacy/addo-list') throw new NetworkError('GET /pharmacy/addo-list: connection reset');
        return super.send<T, M>(r, signal);
      }
    }
    const till = await openTill(h, { connector: new ListDown({ baseUrl: h.base, fetch: h.net.fetch }) });
    tills.push(till);
    await till.login(shop.owner.phone, shop.owner.password);
    await expect(till.syncNow()).rejects.toThrow('connection reset');
    expect((await till.store())?.outlet_type).toBe('addo');

    expect(
      await refusedByTill(
        till.sell({
          lines: [
            { product_id: shop.soap.id, qty: 1 },
            { product_id: shop.amoxil.id, qty: 1 },
          ],
          payment_method: 'Cash',
          prescription: prescription(),
        }),
      ),
    ).toEqual({
      code: 'NOT_READY',
      field: 'lines.1.product_id',
      message: 'this till has not loaded the ADDO list yet: sync once while online before selling medicines',
    });
    expect(await till.sell({ lines: [{ product_id: shop.soap.id, qty: 1 }], payment_method: 'Cash' })).toMatchObject({ total: 800 });

    listDown = false;
    await till.syncNow();
    expect(
      await till.sell({ lines: [{ product_id: shop.amoxil.id, qty: 1 }], payment_method: 'Cash', prescription: prescription() }),
    ).toMatchObject({ total: 3500 });
  });

  it('queues the prescription with an offline sale; the push books it without a conflict', async () => {
    const shop = await dispensary('pharmacy');
    const pushed: PushRequest[] = [];
    class Recording extends HttpConnector {
      override async push(token: string, batch: PushRequest, signal: AbortSignal) {
        pushed.push(batch);
        return super.push(token, batch, signal);
      }
    }
    const till = await tillOf(shop, new Recording({ baseUrl: h.base, fetch: h.net.fetch }));
    h.net.offline = true;
    // The till learns the server is gone, so its sale is rung up offline.
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    const rx = prescription();
    const receipt = await till.sell({
      lines: [
        { product_id: shop.amoxil.id, qty: 2 },
        { product_id: shop.panadol.id, qty: 1 },
      ],
      payment_method: 'Cash',
      prescription: rx,
    });
    expect(receipt).toMatchObject({ total: 8500, sync_state: 'pending' });
    h.net.offline = false;
    await till.syncNow();

    expect(pushed.flatMap((b) => b.mutations).map((m) => [m.type, (m.payload as { prescription?: unknown }).prescription])).toEqual([
      ['sale.create', rx],
    ]);
    expect(await till.transaction(receipt.id)).toMatchObject({ sync_state: 'synced', receipt_number: expect.any(String), total: 8500 });
    expect(await till.conflicts()).toEqual([]);
    expect(await till.stock(shop.amoxil.id)).toBe(48);
    const server = await h.t.request('GET', `/pos/transactions/${receipt.id}`, { token: shop.owner.token });
    expect(server.status).toBe(200);
    expect(server.body.data).toMatchObject({ status: 'paid', total: 8500, source: 'offline' });
    // The prescription register has the sale with the till's prescription and its one prescription medicine.
    const register = await h.t.request('GET', '/pharmacy/prescriptions', { token: shop.owner.token });
    expect(register.status, register.text).toBe(200);
    expect(
      register.body.data.map((e: Record<string, any>) => [
        e.transaction_id,
        e.receipt_number,
        e.prescription,
        e.items.map((i: Record<string, unknown>) => [i.product_name, i.qty]),
      ]),
    ).toEqual([[receipt.id, server.body.data.receipt_number, { ...rx, patient_date_of_birth: null }, [['Amoxil 250mg', 2]]]]);
  });
});
