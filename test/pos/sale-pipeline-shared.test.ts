/**
 * The three ways a sale arrives share one pipeline (issue 50): a pricing rule changed in one place,
 * the `priceLines` stage, changes the online sale (POST /pos/sale), a till's pushed sale (sync push)
 * and a mobile-money sale booked from the provider's callback (AzamPay, over real HTTP against its
 * local fake) alike. The stage is replaced here by the real one plus a marked change: 1 TZS more per
 * line. Without the change each sale would total what its prices say; with it, that plus 1 TZS a line,
 * and a pushed cash sale's tender (judged by the push with the same stage) is held to that total.
 */
import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { ask, checkout, type PushShop, pushShop, readRequest } from '../setup/push-factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

/** The marked change: cents added to each line (1 TZS). */
const MARK = 100;

vi.mock('../../server/src/modules/pos/sale/price-lines.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/src/modules/pos/sale/price-lines.js')>();
  return {
    ...real,
    priceLines: (...args: Parameters<typeof real.priceLines>) => {
      const priced = real.priceLines(...args);
      const added = MARK * priced.lines.length;
      return {
        ...priced,
        lines: priced.lines.map((l) => ({ ...l, line_total: l.line_total + MARK })),
        subtotal: priced.subtotal + added,
        total: priced.total + added,
      };
    },
  };
});

const AZAM = { appName: 'duka-shop', clientId: 'azam-client-7731', clientSecret: 'azam-secret-9f2e', apiKey: 'azam-apikey-44aa' };

describe('one pricing stage for the online, pushed and mobile-money sale', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(AZAM);
  beforeAll(async () => {
    await azampay.start();
    t = await createTestApp({
      config: { AZAMPAY_AUTH_URL: azampay.url, AZAMPAY_CHECKOUT_URL: azampay.url, PUBLIC_URL: 'https://duka.example' },
    });
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await azampay.stop();
    await t.close();
  });

  /** Rice 2,800 TZS and soda 1,000 TZS: three rice and two soda are 10,400 TZS by their prices. */
  async function shop(): Promise<{ owner: Session; rice: string; soda: string }> {
    const owner = await registerOwner(t);
    const product = async (name: string, selling_price: number) =>
      (await t.request('POST', '/inventory/products', { token: owner.token, body: { name, selling_price, stock: 50 } })).body.data
        .id as string;
    return { owner, rice: await product('Mchele 1kg', 2800), soda: await product('Soda', 1000) };
  }

  it('an online sale carries the change: 10,400 TZS by its prices, 10,402 with 1 TZS on each of its two lines', async () => {
    const { owner, rice, soda } = await shop();
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: {
        lines: [
          { product_id: rice, qty: 3 },
          { product_id: soda, qty: 2 },
        ],
        payment_method: 'Cash',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.total).toBe(10_402);
    expect(res.body.data.lines.map((l: { line_total: number }) => l.line_total)).toEqual([8_401, 2_001]);
  });

  it('a pushed sale carries the change: 10,402 TZS', async () => {
    const { owner, rice, soda } = await shop();
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const sale = {
      id: newId(),
      client_receipt_number: 'T1-1',
      lines: [
        { product_id: rice, qty: 3, unit_price: 2800 },
        { product_id: soda, qty: 2, unit_price: 1000 },
      ],
      payment_method: 'Cash',
    };
    const mutation = {
      id: newId(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: sale,
    };
    const pushed = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations: [mutation] } });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.data.results[0].status).toBe('applied');
    const read = await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.total).toBe(10_402);
  });

  it('a pushed cash sale’s tender is judged at the changed price: 10,401 TZS is short of 10,402, 10,500 leaves 98 change', async () => {
    const { owner, rice, soda } = await shop();
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const lines = [
      { product_id: rice, qty: 3, unit_price: 2800 },
      { product_id: soda, qty: 2, unit_price: 1000 },
    ];
    const created_at = new Date(t.clock.now() - 60_000).toISOString();
    const short = { id: newId(), client_receipt_number: 'T1-1', lines, payment_method: 'Cash', cash_tendered: 10_401 };
    const paid = { id: newId(), client_receipt_number: 'T1-2', lines, payment_method: 'Cash', cash_tendered: 10_500 };
    const mutations = [short, paid].map((payload, i) => ({ id: newId(), seq: i + 1, type: 'sale.create', created_at, payload }));
    const pushed = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations } });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.data.results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('is less than the sale') },
    });
    expect(pushed.body.data.results[0].error.message).toContain('10,402');
    expect(pushed.body.data.results[1]).toMatchObject({ status: 'applied', result: { total: 10_402 } });
    const read = await t.request('GET', `/pos/transactions/${paid.id}`, { token: owner.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ total: 10_402, cash_tendered: 10_500, change_given: 98 });
  });

  it('a mobile-money sale booked from the provider’s callback carries the change: 15,700 TZS by its prices, 15,702 asked and booked', async () => {
    const s: PushShop = await pushShop(t, AZAM, 'azampay');
    const body = checkout(s);
    const request = await ask(t, s.cashier, body);
    expect(request.amount).toBe(15_702);
    const push = azampay.pushes.find((p) => p.externalId === body.sale.id)!;
    expect(push.amount).toBe('15702');
    expect(await azampay.pay(push, s.account.callback_url.replace(/^https?:\/\/[^/]+/, http.origin))).toBe(200);
    const paid = await readRequest(t, s.cashier, body.sale.id);
    expect(paid.status).toBe('paid');
    expect(paid.sale).toMatchObject({ id: body.sale.id, payment_verification: 'verified', total: 15_702 });
  });
});
