import { Envelope, PosSummary } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, lastMessage, registerOwner, type Session, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('refund, void, receipts, listing and summaries', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: { token: string }, body: Record<string, unknown>) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body: { stock: 50, ...body } })).body.data as { id: string };
  const sell = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/pos/sale', { token: s.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; total: number; customer_id: string | null };
  };
  const move = (s: { token: string }, id: string, to: 'refund' | 'void') =>
    t.request('POST', `/pos/transactions/${id}/${to}`, { token: s.token, body: { reason: 'customer returned it' } });
  const stockOf = async (s: { token: string }, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

  async function shop() {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Juisi', selling_price: 1500 });
    return { owner, p };
  }

  it('refunds a paid sale, restoring stock; a refunded sale cannot be refunded or voided', async () => {
    const { owner, p } = await shop();
    const sale = await sell(owner, { lines: [{ product_id: p.id, qty: 4 }], payment_method: 'Cash' });
    expect(await stockOf(owner, p.id)).toBe(46);
    const res = await move(owner, sale.id, 'refund');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'refunded', refund_reason: 'customer returned it' });
    expect(res.body.data.refunded_at).toBeTruthy();
    expect(await stockOf(owner, p.id)).toBe(50);
    for (const to of ['refund', 'void'] as const) {
      const again = await move(owner, sale.id, to);
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('INVALID_STATE');
    }
    expect(await stockOf(owner, p.id)).toBe(50);
  });

  it('voids a paid sale, restoring stock; a voided sale cannot move again', async () => {
    const { owner, p } = await shop();
    const staff = await createStaff(t, owner);
    const sale = await sell(staff, { lines: [{ product_id: p.id, qty: 3 }], payment_method: 'Cash' });
    const res = await move(staff, sale.id, 'void');
    expect(res.body.data).toMatchObject({ status: 'void', void_reason: 'customer returned it' });
    expect(await stockOf(owner, p.id)).toBe(50);
    expect((await move(owner, sale.id, 'refund')).status).toBe(409);
    expect((await move(owner, sale.id, 'void')).status).toBe(409);
  });

  it("lets a cashier without the refund permission void only their own sale within 10 minutes; a manager, anyone's (REST and sync)", async () => {
    const { owner, p } = await shop();
    const cashier = await createStaff(t, owner);
    const manager = await createStaff(t, owner, { role: 'manager' });
    // Time passes here beyond an access token's 15 minutes: each signs in afresh after the clock moves.
    const later = async (ms: number) => {
      t.clock.advance(ms);
      for (const s of [owner, cashier, manager]) {
        const pair = (await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).body.data;
        [s.token, s.refresh] = [pair.access_token, pair.refresh_token];
      }
    };
    const ownersSale = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' });
    const mine = await sell(cashier, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' });
    const late = await sell(cashier, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' });
    expect(await stockOf(owner, p.id)).toBe(47);

    const refusal = {
      code: 'FORBIDDEN',
      message:
        'you may void only your own sale, within 10 minutes of making it; anything else needs the refund permission, a manager or the owner',
    };
    const others = await move(cashier, ownersSale.id, 'void');
    expect(others.status).toBe(403);
    expect(others.body.errors[0]).toMatchObject(refusal);
    await later(9 * 60_000);
    expect((await move(cashier, mine.id, 'void')).status).toBe(200);
    await later(2 * 60_000);
    const tooLate = await move(cashier, late.id, 'void');
    expect(tooLate.status).toBe(403);
    expect(await stockOf(owner, p.id)).toBe(48);

    // Over sync the same: judged by when the till voided, not when the push arrived.
    const device_id = crypto.randomUUID();
    expect((await t.request('POST', '/sync/devices', { token: cashier.token, body: { device_id, name: 'Till' } })).status).toBe(200);
    const voidAt = (seq: number, id: string, at: number) => ({
      id: crypto.randomUUID(),
      seq,
      type: 'sale.void',
      created_at: new Date(at).toISOString(),
      payload: { transaction_id: id, reason: 'rung twice' },
    });
    const soon = await sell(cashier, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' });
    await later(30 * 60_000);
    const pushed = await t.request('POST', '/sync/push', {
      token: cashier.token,
      body: {
        device_id,
        mutations: [
          voidAt(1, soon.id, t.clock.now() - 25 * 60_000),
          voidAt(2, late.id, t.clock.now()),
          voidAt(3, ownersSale.id, t.clock.now()),
        ],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.data.results.map((r: { status: string; error?: { code: string } }) => r.error?.code ?? r.status)).toEqual([
      'applied',
      'FORBIDDEN',
      'FORBIDDEN',
    ]);
    expect(await stockOf(owner, p.id)).toBe(48);
    // A manager may void any sale of the store, at any time.
    expect((await move(manager, late.id, 'void')).status).toBe(200);
    expect((await move(manager, ownersSale.id, 'void')).status).toBe(200);
    expect(await stockOf(owner, p.id)).toBe(50);
  });

  it('refuses a refund without the refund permission (403) and changes nothing', async () => {
    const { owner, p } = await shop();
    const staff = await createStaff(t, owner);
    const sale = await sell(staff, { lines: [{ product_id: p.id, qty: 2 }], payment_method: 'Cash' });
    const res = await move(staff, sale.id, 'refund');
    expect(res.status).toBe(403);
    expect((await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token })).body.data.status).toBe('paid');
    expect(await stockOf(owner, p.id)).toBe(48);
    const manager = await createStaff(t, owner, { role: 'manager' });
    expect((await move(manager, sale.id, 'refund')).body.data.status).toBe('refunded');
    expect(await stockOf(owner, p.id)).toBe(50);
  });

  it('voids a credit sale with no payment (tab written off), refunds one with a payment, but will not void it', async () => {
    const { owner, p } = await shop();
    const phone = uniquePhone();
    const first = await sell(owner, {
      lines: [{ product_id: p.id, qty: 1 }],
      payment_method: 'Credit',
      customer_name: 'Bi Mwanaisha',
      customer_phone: phone,
    });
    expect((await move(owner, first.id, 'void')).body.data.status).toBe('void');
    const tab = await t.db.db.selectFrom('credit_tabs').selectAll().where('transaction_id', '=', first.id).executeTakeFirstOrThrow();
    expect(tab).toMatchObject({ status: 'written_off', write_off_reason: 'sale voided', written_off_amount: 150000 });

    const second = await sell(owner, { lines: [{ product_id: p.id, qty: 2 }], payment_method: 'Credit', customer_id: first.customer_id });
    await t.db.db
      .updateTable('credit_tabs')
      .set({ paid_amount: 100000, status: 'partially_paid' })
      .where('transaction_id', '=', second.id)
      .execute();
    const refused = await move(owner, second.id, 'void');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('this credit sale has payments; refund it instead of voiding it');
    expect((await move(owner, second.id, 'refund')).body.data.status).toBe('refunded');
    const refundedTab = await t.db.db
      .selectFrom('credit_tabs')
      .selectAll()
      .where('transaction_id', '=', second.id)
      .executeTakeFirstOrThrow();
    expect(refundedTab).toMatchObject({
      status: 'written_off',
      write_off_reason: 'sale refunded',
      paid_amount: 100000,
      written_off_amount: 200000,
    });
    expect(await stockOf(owner, p.id)).toBe(50);
  });

  it('holds a pharmacy’s refunded medicine in quarantine instead of restocking it', async () => {
    const owner = await registerOwner(t, { shop: { name: 'Famasia Afya', business_type: 'pharmacy' } });
    const panadol = await product(owner, { name: 'Panadol', selling_price: 2000 });
    const sale = await sell(owner, { lines: [{ product_id: panadol.id, qty: 3 }], payment_method: 'Cash' });
    await move(owner, sale.id, 'refund');
    expect(await stockOf(owner, panadol.id)).toBe(47);
    const held = await t.db.db.selectFrom('stock_quarantine').selectAll().where('transaction_id', '=', sale.id).execute();
    expect(held.map((h) => [h.product_id, h.qty, h.status])).toEqual([[panadol.id, 3, 'held']]);
  });

  // Another organisation's transaction (read, refund, void, receipt): test/api/access-rules.test.ts.
  it('emails a receipt through the outbox and says when no email service is configured', async () => {
    const { owner, p } = await shop();
    const sale = await sell(owner, { lines: [{ product_id: p.id, qty: 2 }], payment_method: 'Cash' });
    const email = uniqueEmail('customer');
    const res = await t.request('POST', `/pos/transactions/${sale.id}/receipt`, { token: owner.token, body: { email } });
    expect(res.body).toMatchObject({
      message: 'no email service is configured: the receipt was kept in the outbox',
      data: { email, delivered: false },
    });
    const mail = await lastMessage(t, email);
    expect(mail!.body).toContain('2 x Juisi @ TZS 1,500 = TZS 3,000');
    expect(mail!.body).toContain('Total: TZS 3,000');
  });

  it('writes a receipt’s amounts with cents as two decimals', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Sabuni', selling_price: 1550.5 });
    const sale = await sell(owner, { lines: [{ product_id: p.id, qty: 3 }], payment_method: 'Cash' });
    const email = uniqueEmail('customer');
    expect((await t.request('POST', `/pos/transactions/${sale.id}/receipt`, { token: owner.token, body: { email } })).status).toBe(200);
    const mail = await lastMessage(t, email);
    expect(mail!.body).toContain('3 x Sabuni @ TZS 1,550.50 = TZS 4,651.50');
    expect(mail!.body).toContain('Total: TZS 4,651.50');
  });

  it('lists transactions with every filter and finds one by receipt or payment reference', async () => {
    const { owner, p } = await shop();
    const a = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'M-Pesa', payment_reference: 'QX12345' });
    const b = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' });
    await move(owner, b.id, 'refund');
    const list = async (q: string) => (await t.request('GET', `/pos/transactions${q}`, { token: owner.token })).body;
    expect((await list('')).data.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect((await list('?status=refunded')).data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await list('?method=M-Pesa')).data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await list('?search=qx123')).data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const receipt = (await list('')).data[0].receipt_number as string;
    expect((await list(`?search=${receipt}`)).data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await list('?page_size=1&page=2')).meta).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2 });
  });

  it('summarises a local day and buckets sales by local hour around midnight in Dar es Salaam', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Soda', selling_price: 1000, stock: 500 });
    // 2026-12-01 20:59 UTC is 23:59 in Dar es Salaam; 21:00 UTC is midnight, the next local day.
    const target = Date.UTC(2026, 11, 1, 20, 59, 0);
    t.clock.advance(target - t.clock.now());
    const login = async (): Promise<Session> => ({
      ...owner,
      token: (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
        .access_token,
    });
    let s = await login();
    await sell(s, { lines: [{ product_id: p.id, qty: 2 }], payment_method: 'Cash' });
    await sell(s, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'M-Pesa' });
    const refunded = await sell(s, { lines: [{ product_id: p.id, qty: 5 }], payment_method: 'Bank' });
    await move(s, refunded.id, 'refund');
    t.clock.advance(60_000);
    s = await login();
    await sell(s, { lines: [{ product_id: p.id, qty: 3 }], payment_method: 'Tigo Pesa' });

    const dec1 = Envelope(PosSummary).parse(
      (await t.request('GET', '/pos/summary?date_from=2026-12-01&date_to=2026-12-01', { token: s.token })).body,
    ).data;
    expect(dec1).toMatchObject({
      total_sales: 3000,
      transaction_count: 2,
      average_ticket: 1500,
      items_sold: 3,
      cash_total: 2000,
      mpeca_total: 1000,
      mpesa_total: 1000,
      tigo_pesa_total: 0,
      airtel_money_total: 0,
      bank_total: 0,
      credit_total: 0,
      refund_count: 1,
      refund_total: 5000,
    });
    const today = (await t.request('GET', '/pos/summary', { token: s.token })).body.data;
    expect(today).toMatchObject({ date_from: '2026-12-02', total_sales: 3000, transaction_count: 1, tigo_pesa_total: 3000, items_sold: 3 });
    const both = (await t.request('GET', '/pos/summary?date_from=2026-12-01&date_to=2026-12-02', { token: s.token })).body.data;
    expect(both).toMatchObject({ total_sales: 6000, transaction_count: 3 });

    const hours = (await t.request('GET', '/pos/summary/hourly?date=2026-12-01', { token: s.token })).body.data as Array<{
      hour: number;
      sales: number;
      count: number;
    }>;
    expect(hours).toHaveLength(24);
    expect(hours.filter((h) => h.count > 0)).toEqual([{ hour: 23, sales: 3000, count: 2 }]);
    const next = (await t.request('GET', '/pos/summary/hourly', { token: s.token })).body.data as Array<{
      hour: number;
      sales: number;
      count: number;
    }>;
    expect(next.filter((h) => h.count > 0)).toEqual([{ hour: 0, sales: 3000, count: 1 }]);
    const bad = await t.request('GET', '/pos/summary?date_from=2026-12-02&date_to=2026-12-01', { token: s.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('date_to');
  });
});
