/**
 * A customer's personal data under Tanzania's Personal Data Protection Act 2022 (issue 49 item
 * 16): the owner exports everything held about one customer (JSON and CSV), corrects it, and
 * erases the person while the sales, tax and credit records stay; each is audited; the tills'
 * copies follow on their next pull.
 */
import { CustomerErasure, CustomerPersonalData, Envelope, PullResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, registerOwner, type Session, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { newProduct } from '../setup/suppliers-factories.js';
import { databaseSnapshot } from '../setup/tenant-fixtures.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('customers: personal data (export, correction, erasure)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (s: { token: string }, method: string, path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token: s.token, body });
    expect(res.status, res.text).toBe(status);
    return res;
  };
  const exported = async (s: Session, id: string) =>
    Envelope(CustomerPersonalData).parse((await call(s, 'GET', `/customers/${id}/personal-data`)).body).data;
  const erase = async (s: Session, id: string) =>
    Envelope(CustomerErasure).parse((await call(s, 'POST', `/customers/${id}/erase`)).body).data;
  const pullAll = async (s: Session, cursor?: string) => {
    const changes: PullResponse['changes'] = [];
    for (;;) {
      const res = await call(s, 'GET', `/sync/pull${cursor ? `?cursor=${cursor}` : ''}`);
      const page = Envelope(PullResponse).parse(res.body).data;
      changes.push(...page.changes);
      cursor = page.cursor;
      if (!page.has_more) return { changes, cursor };
    }
  };
  /** The money of the organisation's sales and tabs, as stored. */
  const ledger = (orgId: string) =>
    Promise.all([
      t.db.db
        .selectFrom('transactions')
        .select(['id', 'receipt_number', 'status', 'subtotal', 'discount', 'tax', 'total', 'customer_id', 'created_at'])
        .where('org_id', '=', orgId)
        .orderBy('number')
        .execute(),
      t.db.db
        .selectFrom('credit_tabs')
        .select(['id', 'amount', 'paid_amount', 'written_off_amount', 'status', 'due_date'])
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .execute(),
      t.db.db.selectFrom('credit_payments').select(['id', 'amount', 'method', 'reference']).where('org_id', '=', orgId).execute(),
    ]);
  const audits = (orgId: string, id: string) =>
    t.db.db
      .selectFrom('audit_log')
      .select(['action', 'description'])
      .where('org_id', '=', orgId)
      .where('entity_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  /**
   * Zuhura buys for cash (with her TIN and a note naming her), on credit, and once as a walk-in
   * giving only her phone; pays part of her debt by M-Pesa; gets a reminder, an SMS and an email
   * receipt; the owner notes where she lives.
   */
  async function zuhura(surname: string, tin: string) {
    const owner = await registerOwner(t);
    await call(owner, 'PATCH', `/stores/${owner.storeId}`, { vat_enabled: true });
    const phone = uniquePhone();
    const email = uniqueEmail('zuhura');
    const rice = await newProduct(t, owner, { name: 'Mchele 1kg', selling_price: 2950, tax_rate: 18, stock: 50 });
    const created = await call(owner, 'POST', '/customers', {
      name: `Zuhura ${surname}`,
      phone,
      email,
      notes: `Anaishi ${surname}ni Beach`,
    });
    const customer = created.body.data as { id: string };
    // A correction (the Act's right to rectification) is PATCH /customers/:id.
    await call(owner, 'PATCH', `/customers/${customer.id}`, { name: `Zuhura ${surname} Juma` });
    const sale = async (body: Record<string, unknown>) =>
      (await call(owner, 'POST', '/pos/sale', { lines: [{ product_id: rice.id, qty: 2 }], ...body }, 201)).body.data as {
        id: string;
        receipt_number: string;
      };
    // Sold with an Idempotency-Key: its answer, naming her, is kept (sealed) for a retry.
    const cashBody = {
      lines: [{ product_id: rice.id, qty: 2 }],
      payment_method: 'Cash',
      customer_id: customer.id,
      customer_tin: tin,
      notes: `Zuhura ${surname} Juma atachukua kesho`,
    };
    const retryCash = () =>
      t.request('POST', '/pos/sale', { token: owner.token, body: cashBody, headers: { 'idempotency-key': `cash-${surname}` } });
    const sold = await retryCash();
    expect(sold.status, sold.text).toBe(201);
    const cash = sold.body.data as { id: string; receipt_number: string };
    const credit = await sale({ payment_method: 'Credit', customer_id: customer.id });
    const walkIn = await sale({ payment_method: 'M-Pesa', payment_reference: 'QK7H2L9XYZ', payment_phone: phone, customer_phone: phone });
    await call(owner, 'POST', `/credits/customers/${customer.id}/payments`, {
      amount: 2000,
      method: 'M-Pesa',
      reference: 'RB41XK2',
      note: 'Zuhura alileta',
    });
    await call(owner, 'POST', `/credits/customers/${customer.id}/remind`);
    await call(owner, 'POST', `/credits/customers/${customer.id}/notes`, { body: `Mume wake anafanya kazi ${surname}ni` });
    await call(owner, 'POST', `/pos/transactions/${cash.id}/receipt`, { phone });
    await call(owner, 'POST', `/pos/transactions/${cash.id}/receipt`, { email });
    return { owner, customer, phone, email, tin, cash, credit, walkIn, retryCash };
  }

  it('exports everything held about the customer, as JSON and as CSV, and audits it', async () => {
    const { owner, customer, phone, email, cash, credit, walkIn } = await zuhura('Makame', '109876543');
    const data = await exported(owner, customer.id);
    expect(data.customer).toMatchObject({
      id: customer.id,
      name: 'Zuhura Makame Juma',
      phone: e164(phone),
      email,
      notes: 'Anaishi Makameni Beach',
      total_spend: 17_700,
      visit_count: 3,
      outstanding_balance: 3_900,
    });
    const line = { product_name: 'Mchele 1kg', qty: 2, unit: 'piece', unit_price: 2950, line_total: 5900, tax: 900 };
    expect(data.sales.map(({ created_at: _, store_id: __, ...s }) => s)).toEqual([
      {
        id: cash.id,
        receipt_number: cash.receipt_number,
        status: 'paid',
        payment_method: 'Cash',
        payment_reference: null,
        payment_phone: null,
        customer_name: 'Zuhura Makame Juma',
        customer_phone: e164(phone),
        customer_tin: '109876543',
        subtotal: 5900,
        discount: 0,
        tax: 900,
        total: 5900,
        notes: 'Zuhura Makame Juma atachukua kesho',
        lines: [line],
      },
      expect.objectContaining({ id: credit.id, status: 'credit', payment_method: 'Credit', total: 5900, lines: [line] }),
      expect.objectContaining({
        id: walkIn.id,
        payment_method: 'M-Pesa',
        payment_reference: 'QK7H2L9XYZ',
        payment_phone: e164(phone),
        customer_phone: e164(phone),
        total: 5900,
      }),
    ]);
    expect(data.credit_tabs).toEqual([
      expect.objectContaining({
        transaction_id: credit.id,
        amount: 5900,
        paid_amount: 2000,
        written_off_amount: 0,
        status: 'partially_paid',
      }),
    ]);
    expect(data.credit_payments).toEqual([
      expect.objectContaining({ amount: 2000, method: 'M-Pesa', reference: 'RB41XK2', note: 'Zuhura alileta' }),
    ]);
    expect(data.credit_messages).toEqual([expect.objectContaining({ kind: 'sms', body: expect.stringContaining('Zuhura Makame Juma') })]);
    expect(data.credit_notes).toEqual([expect.objectContaining({ body: 'Mume wake anafanya kazi Makameni' })]);
    expect(data.messages.map((m) => [m.channel, m.recipient]).sort()).toEqual(
      [
        ['email', email],
        ['sms', e164(phone)],
        ['sms', e164(phone)],
      ].sort(),
    );
    expect(data).toMatchObject({ mobile_money: [], fiscal_receipts: [], prescriptions: [] });

    const csv = await t.request('GET', `/customers/${customer.id}/personal-data?format=csv`, { token: owner.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="customer-${customer.id}.csv"`);
    const { header, records: rows } = csvRecords(csv.text);
    expect(header).toEqual(['section', 'record_id', 'field', 'value']);
    const value = (section: string, id: string, field: string) =>
      rows.filter((r) => r.section === section && r.record_id === id && r.field === field).map((r) => r.value);
    expect(value('customer', customer.id, 'name')).toEqual(['Zuhura Makame Juma']);
    expect(value('customer', customer.id, 'phone')).toEqual([e164(phone)]);
    expect(value('sale', cash.id, 'customer_tin')).toEqual(['109876543']);
    expect(value('sale', cash.id, 'total')).toEqual(['5900']);
    expect(value('sale_line', `${cash.id}/1`, 'product_name')).toEqual(['Mchele 1kg']);
    expect(value('credit_payment', data.credit_payments[0]!.id, 'note')).toEqual(['Zuhura alileta']);
    expect(value('credit_note', data.credit_notes[0]!.id, 'body')).toEqual(['Mume wake anafanya kazi Makameni']);
    // Every field of every record of the JSON, once: customer 13, 3 sales of 16 (lines apart) with a line of 6 each, and the rest.
    const fields = (records: object[]) => records.reduce((n, r) => n + Object.keys(r).length, 0);
    expect(rows).toHaveLength(
      13 +
        3 * 16 +
        3 * 6 +
        fields(data.credit_tabs) +
        fields(data.credit_payments) +
        fields(data.credit_messages) +
        fields(data.credit_notes) +
        fields(data.messages),
    );
    expect(await audits(owner.orgId, customer.id)).toEqual(
      expect.arrayContaining([
        { action: 'customer.update', description: 'Updated customer Zuhura Makame Juma' },
        { action: 'customer.personal_data_export', description: 'Exported the personal data of a customer' },
      ]),
    );
    expect((await audits(owner.orgId, customer.id)).filter((a) => a.action === 'customer.personal_data_export')).toHaveLength(2);
  });

  it('erases the person from every table, keeps every amount, tells the tills, audits it, and erasing again changes nothing', async () => {
    const { owner, customer, phone, email, tin, cash, credit, walkIn, retryCash } = await zuhura('Mwinyimkuu', '208765431');
    const before = await ledger(owner.orgId);
    const { cursor } = await pullAll(owner);

    const erased = await erase(owner, customer.id);
    expect(erased).toMatchObject({
      already_erased: false,
      kept: { sales: 3, credit_tabs: 1, credit_payments: 1 },
      customer: {
        id: customer.id,
        name: 'Erased customer',
        phone: null,
        email: null,
        notes: null,
        is_active: false,
        total_spend: 17_700,
        visit_count: 3,
        outstanding_balance: 3_900,
      },
    });

    // Nothing identifying anywhere in the database: every table, every row, every column.
    const everything = JSON.stringify(await databaseSnapshot(t)).toLowerCase();
    const national = `0${e164(phone).slice(4)}`;
    for (const trace of ['Mwinyimkuu', e164(phone), e164(phone).slice(1), national, email, tin])
      expect(everything, trace).not.toContain(trace.toLowerCase());

    // The stored answer a retry of the keyed sale replays is sealed, so no search above could see it:
    // the replay names her no more, and is still the same sale.
    const replay = await retryCash();
    expect(replay.status, replay.text).toBe(201);
    expect(replay.body.data).toMatchObject({ id: cash.id, receipt_number: cash.receipt_number, total: 5900 });
    for (const trace of ['Mwinyimkuu', e164(phone), tin]) expect(replay.text, trace).not.toContain(trace);

    // The sales, tax and credit records are what they were.
    expect(await ledger(owner.orgId)).toEqual(before);
    const profile = await call(owner, 'GET', `/credits/customers/${customer.id}`);
    expect(profile.body.data.total_outstanding).toBe(3_900);
    const sales = await t.db.db
      .selectFrom('transactions')
      .select(['id', 'customer_name', 'customer_phone', 'customer_tin', 'payment_phone', 'payment_reference', 'notes'])
      .where('org_id', '=', owner.orgId)
      .orderBy('number')
      .execute();
    expect(sales).toEqual([
      {
        id: cash.id,
        customer_name: 'Erased customer',
        customer_phone: null,
        customer_tin: null,
        payment_phone: null,
        payment_reference: null,
        notes: 'Erased customer atachukua kesho',
      },
      {
        id: credit.id,
        customer_name: 'Erased customer',
        customer_phone: null,
        customer_tin: null,
        payment_phone: null,
        payment_reference: null,
        notes: null,
      },
      {
        id: walkIn.id,
        customer_name: 'Erased customer',
        customer_phone: null,
        customer_tin: null,
        payment_phone: null,
        payment_reference: 'QK7H2L9XYZ',
        notes: null,
      },
    ]);
    const outbox = await t.db.db
      .selectFrom('outbox')
      .select(['recipient', 'body'])
      .where('org_id', '=', owner.orgId)
      .where('recipient', '=', '[erased]')
      .execute();
    expect(outbox).toHaveLength(3);

    // The tills' next pull replaces their copies of the customer and of her sales and tab.
    const step = await pullAll(owner, cursor);
    const got = (entity: string, id: string) => step.changes.filter((c) => c.entity === entity && c.id === id).at(-1)?.data;
    expect(got('customer', customer.id)).toMatchObject({ name: 'Erased customer', phone: null, email: null, notes: null });
    for (const id of [cash.id, credit.id, walkIn.id])
      expect(got('transaction', id)).toMatchObject({ customer_name: 'Erased customer', customer_phone: null });
    expect(step.changes.some((c) => c.entity === 'credit_tab')).toBe(true);
    expect(JSON.stringify(step.changes)).not.toContain('Mwinyimkuu');

    // Erasing again: nothing was left, nothing changes but the audit trail.
    const snapshot = await databaseSnapshot(t);
    const again = await erase(owner, customer.id);
    expect(again).toMatchObject({ already_erased: true, kept: { sales: 3, credit_tabs: 1, credit_payments: 1 } });
    const after = await databaseSnapshot(t);
    expect({ ...after, audit_log: [] }).toEqual({ ...snapshot, audit_log: [] });
    expect((await audits(owner.orgId, customer.id)).filter((a) => a.action === 'customer.erase')).toEqual([
      { action: 'customer.erase', description: "Erased a customer's personal data" },
      { action: 'customer.erase', description: 'Asked to erase a customer already erased: nothing was left' },
    ]);
  });

  it('a weighed line is exported in its unit (issue 51): 0.5 kg, not 500', async () => {
    const owner = await registerOwner(t);
    const sugar = await newProduct(t, owner, { name: 'Sukari', unit: 'kg', selling_price: 3200, stock: 10 });
    const customer = (await call(owner, 'POST', '/customers', { name: 'Asha Ali', phone: uniquePhone() })).body.data as { id: string };
    await call(
      owner,
      'POST',
      '/pos/sale',
      { lines: [{ product_id: sugar.id, qty: 0.5 }], payment_method: 'Cash', customer_id: customer.id },
      201,
    );
    const data = await exported(owner, customer.id);
    expect(data.sales.map((s) => s.lines)).toEqual([
      [{ product_name: 'Sukari', qty: 0.5, unit: 'kg', unit_price: 3200, line_total: 1600, tax: 0 }],
    ]);
  });

  it('is the owner’s alone (cashier 403) and another organisation’s customer is not found (404), with nothing written', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const cashier = await createStaff(t, owner, { can_manage_credit: true });
    const created = await call(owner, 'POST', '/customers', { name: 'Rehema Said', phone: uniquePhone() });
    const id = created.body.data.id as string;
    const snapshot = await databaseSnapshot(t);
    for (const [who, status] of [
      [cashier, 403],
      [other, 404],
    ] as const) {
      expect((await t.request('GET', `/customers/${id}/personal-data`, { token: who.token })).status).toBe(status);
      expect((await t.request('GET', `/customers/${id}/personal-data?format=csv`, { token: who.token })).status).toBe(status);
      expect((await t.request('POST', `/customers/${id}/erase`, { token: who.token })).status).toBe(status);
    }
    expect((await t.request('GET', `/customers/${id}/personal-data?format=xml`, { token: owner.token })).status).toBe(400);
    expect(await databaseSnapshot(t)).toEqual(snapshot);
    expect((await exported(owner, id)).customer.name).toBe('Rehema Said');
  });
});
