/**
 * Every SQL statement a sale runs, pinned (issue 50): the sale pipeline may be rearranged, never
 * what it asks of the database. Recorded over the real app, request by request, at Kysely's `log`
 * hook (the one COUNT_STATEMENTS counts with, db/statement-count.ts): an online POST /pos/sale of a
 * plain shop (a credit customer with a discount, then a new customer by phone), a sync push of
 * three sales (the third oversold), a pharmacy's prescription sale of a batch-tracked medicine
 * over two lots (FEFO), and a mobile-money sale asked for (AzamPay, its local fake) and booked from
 * the provider's callback. Each statement's text is kept with its parameters out (Kysely keeps them
 * apart already) and any id in it replaced, and compared with test/pos/fixtures/sale-statements.<dialect>.txt.
 *
 * A change that means to change the statements (issue 49's push writes, say) regenerates the
 * fixture on purpose and shows it in its diff:
 *   UPDATE_STATEMENT_LOG=1 npx vitest run --project sqlite test/pos/sale-statements.test.ts
 *   UPDATE_STATEMENT_LOG=1 npx vitest run --project postgres-by-org test/pos/sale-statements.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '@duka/shared';
import { registerOwner, uniquePhone } from '../setup/factories.js';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { newMedicine, PRESCRIPTION, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { ask, checkout, pushShop } from '../setup/push-factories.js';
import type { Listening, TestApp } from '../setup/test-app.js';

const recorded: string[] = [];
let recording = false;

vi.mock('../../server/src/db/statement-count.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/src/db/statement-count.js')>();
  return {
    ...real,
    countStatement(event: LogEvent) {
      // Only the request's own statements (counting() is true inside a request's measure), not the test's reads.
      if (recording && real.counting()) recorded.push(normalise(event.query.sql));
      real.countStatement(event);
    },
  };
});

const AZAM = { appName: 'duka-shop', clientId: 'azam-client-7731', clientSecret: 'azam-secret-9f2e', apiKey: 'azam-apikey-44aa' };

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
function normalise(sql: string): string {
  return sql.replace(ID, '<id>').replace(/\s+/g, ' ').trim();
}

const FIXTURE = new URL(`./fixtures/sale-statements.${process.env.DUKA_TEST_DIALECT ?? 'sqlite'}.txt`, import.meta.url);

describe('the statements a sale runs (online, pushed, pharmacy, mobile money)', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(AZAM);
  const log: string[] = [];
  beforeAll(async () => {
    // The setup file has loaded the database modules already: loaded afresh, the app takes the mock above.
    vi.resetModules();
    const { createTestApp, listen } = await import('../setup/test-app.js');
    await azampay.start();
    t = await createTestApp({
      config: {
        COUNT_STATEMENTS: true,
        AZAMPAY_AUTH_URL: azampay.url,
        AZAMPAY_CHECKOUT_URL: azampay.url,
        PUBLIC_URL: 'https://duka.example',
      },
    });
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await azampay.stop();
    await t.close();
  });

  /** One request's statements, under a heading, into the log. */
  async function record(heading: string, send: () => Promise<{ status: number; text: string }>, status: number) {
    recorded.length = 0;
    recording = true;
    try {
      const res = await send();
      expect(res.status, res.text).toBe(status);
    } finally {
      recording = false;
    }
    log.push(`## ${heading} (${recorded.length} statements)`, ...recorded, '');
  }
  const warm = (s: { token: string }) => t.request('GET', '/accounts/me', { token: s.token });

  it('online POST /pos/sale in a plain shop: a credit customer with a discount, then a new customer by phone', async () => {
    const owner = await registerOwner(t);
    const product = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Mchele 1kg', selling_price: 2800, stock: 40 } })
    ).body.data as { id: string };
    const customer = (await t.request('POST', '/customers', { token: owner.token, body: { name: 'Mama Zawadi', phone: uniquePhone() } }))
      .body.data as { id: string };
    await t.db.db.updateTable('customers').set({ credit_limit: 10_000_000 }).where('id', '=', customer.id).execute();
    await warm(owner);
    const sell = (body: Record<string, unknown>) => () => t.request('POST', '/pos/sale', { token: owner.token, body });
    await record(
      'online sale on credit with a 10% discount',
      sell({
        id: newId(),
        lines: [{ product_id: product.id, qty: 3 }],
        payment_method: 'Credit',
        customer_id: customer.id,
        discount_pct: 10,
      }),
      201,
    );
    await record(
      'online cash sale to a new customer by phone',
      sell({
        lines: [{ product_id: product.id, qty: 1 }],
        payment_method: 'Cash',
        cash_tendered: 5000,
        customer_name: 'Bwana Said',
        customer_phone: uniquePhone(),
      }),
      201,
    );
  });

  it('sync push of three sales, the third oversold', async () => {
    const owner = await registerOwner(t);
    const soda = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Soda', selling_price: 1000, stock: 5 } })
    ).body.data as { id: string };
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    await warm(owner);
    const at = new Date(t.clock.now() - 60_000).toISOString();
    const mutations = [2, 2, 4].map((qty, i) => ({
      id: newId(),
      seq: i + 1,
      type: 'sale.create',
      created_at: at,
      payload: {
        id: newId(),
        client_receipt_number: `T1-${i + 1}`,
        lines: [{ product_id: soda.id, qty, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    }));
    await record(
      'sync push of three sales',
      () => t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations } }),
      200,
    );
  });

  it('pharmacy sale of a prescription medicine over two lots (FEFO)', async () => {
    const owner = await pharmacyOwner(t);
    const amoxil = await newMedicine(t, owner, { name: 'Amoxil 250mg', generic_name: 'Amoxicillin', strength: '250 mg', schedule: 'pom' });
    await receiveLots(t, owner, [
      { product_id: amoxil.id, lot_number: 'A-1', expiry_date: '2027-03-31', qty: 3 },
      { product_id: amoxil.id, lot_number: 'A-2', expiry_date: '2027-09-30', qty: 20 },
    ]);
    await warm(owner);
    await record(
      'pharmacy prescription sale over two lots',
      () =>
        t.request('POST', '/pos/sale', {
          token: owner.token,
          body: { lines: [{ product_id: amoxil.id, qty: 5 }], payment_method: 'Cash', prescription: PRESCRIPTION },
        }),
      201,
    );
  });

  it('mobile-money sale: asked for, then booked from the provider’s callback', async () => {
    const shop = await pushShop(t, AZAM, 'azampay');
    await warm(shop.cashier);
    const body = checkout(shop);
    await record('mobile-money payment request', async () => ({ ...(await ask(t, shop.cashier, body)), status: 201, text: '' }), 201);
    const push = azampay.pushes.find((p) => p.externalId === body.sale.id)!;
    await record(
      'mobile-money callback booking the sale',
      async () => {
        const status = await azampay.pay(push, shop.account.callback_url.replace(/^https?:\/\/[^/]+/, http.origin));
        await t.deps.afterAnswer.idle();
        return { status, text: '' };
      },
      200,
    );
  });

  it('matches the committed statement log', () => {
    const text = `${log.join('\n')}\n`;
    if (process.env.UPDATE_STATEMENT_LOG === '1') writeFileSync(FIXTURE, text);
    expect(text).toBe(readFileSync(FIXTURE, 'utf8'));
  });
});
