/**
 * A manager and a cashier on the back office's money screens, at 390×844 and 1280×800 (the owner's
 * view is the other office-*.e2e files'; a cashier with no permission at all is office-shell's and
 * office-people's). The owner adds, through the API, a manager without the refund and credit
 * permissions but with reports, and a cashier with the credit permission only. Each signs in and
 * finds on Customers (a payment, a write-off, the credit limit), Expenses (add), Suppliers (pay),
 * Sales (refund, void) and Reports exactly what the server's rules give them (office/src/access.ts);
 * the one they are allowed works (the manager voids the owner's sale, the cashier writes a tab
 * off), and each is offered a void of their own sale of a minute ago; a screen that is the
 * owner's, opened by its address, says so; and the writes they are not offered, forced through the
 * API with their own token, answer 403 and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { goTo, menu, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

type RoleName = 'manager' | 'cashier';
type Shopfront = Awaited<ReturnType<typeof shopfront>>;
type Forced = (s: Shopfront) => [method: string, path: string, body: Record<string, unknown>];

const OFF = {
  can_refund: false,
  can_discount: false,
  can_view_reports: false,
  can_manage_pharmacy: false,
  can_manage_credit: false,
  can_manage_stock: false,
  can_manage_suppliers: false,
};

/** What each member is given, what the office must offer them, and the writes the server must refuse them. */
const ROLES: Record<
  RoleName,
  {
    flags: Record<string, unknown>;
    offered: { writeOff: boolean; creditLimit: boolean; void: boolean; reports: boolean };
    ownersScreen: string;
    forced: Forced[];
  }
> = {
  manager: {
    flags: { ...OFF, role: 'manager', can_view_reports: true, can_discount: true, can_manage_stock: true, can_manage_suppliers: true },
    // A manager may void any sale (shared checkReversal); refunds need the refund permission.
    offered: { writeOff: false, creditLimit: false, void: true, reports: true },
    ownersScreen: 'settings',
    forced: [
      (s) => ['POST', `/credits/${s.tabId}/write-off`, { reason: 'forced' }],
      (s) => ['PATCH', `/customers/${s.customer.id}`, { credit_limit: 50_000 }],
      (s) => ['POST', `/suppliers/deliveries/${s.delivery.id}/pay`, { amount: 1000, payment_method: 'Cash' }],
      (s) => ['POST', `/pos/transactions/${s.sale.id}/refund`, { reason: 'forced' }],
    ],
  },
  cashier: {
    flags: { ...OFF, role: 'staff', can_manage_credit: true },
    // Another's sale: a cashier voids only their own, for ten minutes.
    offered: { writeOff: true, creditLimit: true, void: false, reports: false },
    ownersScreen: 'stores',
    forced: [
      (s) => ['POST', `/suppliers/${s.supplier.id}/pay`, { amount: 1000, payment_method: 'Cash' }],
      (s) => ['POST', `/pos/transactions/${s.sale.id}/refund`, { reason: 'forced' }],
      (s) => ['POST', `/pos/transactions/${s.sale.id}/void`, { reason: 'forced' }],
      () => ['POST', '/reports/generate', { report_type: 'sales', format: 'json' }],
    ],
  },
};
/** Every money screen is any signed-in user's to open; Staff, Stores and Settings are the owner's. */
const MENU = ['today', 'sales', 'products', 'stock', 'suppliers', 'customers', 'expenses', 'shifts', 'reports'];

let shop: Shop;

const call = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await shop.t.request(method, path, { token, body });
  expect([200, 201], res.text).toContain(res.status);
  return res.body.data;
};

/** The owner's shop: a supplier owed 7,000 for a delivery, a customer owing 3,000 on a tab, a cash sale of the owner's. */
async function shopfront(tag: string) {
  const owner: Session = await registerOwner(shop.t);
  const as = (method: string, path: string, body?: unknown) => call(owner.token, method, path, body);
  const soda = await as('POST', '/inventory/products', { name: `Soda ${tag}`, selling_price: 1000, cost_price: 700, stock: 20 });
  const supplier = await as('POST', '/suppliers', { name: `Bakhresa ${tag}` });
  const delivery = await as('POST', '/suppliers/deliveries', {
    supplier_id: supplier.id,
    status: 'delivered',
    lines: [{ product_id: soda.id, qty: 10, unit_cost: 700 }],
  });
  const customer = await as('POST', '/customers', { name: `Bi. Zuhura ${tag}`, phone: '0713000222' });
  await as('POST', '/pos/sale', { lines: [{ product_id: soda.id, qty: 3 }], payment_method: 'Credit', customer_id: customer.id });
  const sale = await as('POST', '/pos/sale', { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' });
  const tabId = (await as('GET', `/credits/customers/${customer.id}`)).tabs[0].id as string;
  // Two sold, one brought back: the rest is refunded, never voided.
  const partly = await as('POST', '/pos/sale', { lines: [{ product_id: soda.id, qty: 2 }], payment_method: 'Cash' });
  await as('POST', `/pos/transactions/${partly.id}/refund`, { reason: 'one was flat', lines: [{ product_id: soda.id, qty: 1 }] });
  return { owner, as, soda, supplier, delivery, customer, sale, partly, tabId };
}

describe('a manager and a cashier on the money screens', () => {
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const cases = (['manager', 'cashier'] as RoleName[]).flatMap((role) =>
    (Object.keys(VIEWPORTS) as Viewport[]).map((v) => [role, v] as const),
  );

  it.each(cases)('a %s sees what the server allows them and is refused the rest, at %s size', async (role, viewport) => {
    const { flags, offered, ownersScreen, forced } = ROLES[role];
    const s = await shopfront(`${role} ${viewport}`);
    const member = await createStaff(shop.t, s.owner, { first_name: role, last_name: viewport, ...flags });

    // What the office does not offer them, the API refuses them: 403, and nothing changes.
    for (const write of forced) {
      const [method, path, body] = write(s);
      const res = await shop.t.request(method, path, { token: member.token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
    }
    expect((await s.as('GET', `/suppliers/${s.supplier.id}`)).outstanding_balance).toBe(7000);
    expect((await s.as('GET', `/credits/customers/${s.customer.id}`)).total_outstanding).toBe(3000);
    expect((await s.as('GET', `/pos/transactions/${s.sale.id}`)).status).toBe('paid');

    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, member.phone, member.password);
    expect(await menu(page)).toEqual(MENU);
    const open = (path: string) => page.goto(`${shop.origin}/office/${path}`);
    const count = (testid: string) => page.getByTestId(testid).count();

    // The owner's screen, opened by its address.
    await open(ownersScreen);
    await page.getByTestId('refused').waitFor();

    // Suppliers: deliveries received, none paid by anyone but the owner.
    await open(`suppliers/${s.supplier.id}`);
    await page.getByTestId('supplier-owed').filter({ hasText: 'TSh 7,000' }).waitFor();
    await page.getByTestId('deliveries-row').waitFor();
    expect(await count('delivery-pay')).toBe(0);
    expect(await count('pay-supplier')).toBe(0);

    // Expenses: anyone signed in records one.
    await goTo(page, 'expenses');
    await page.getByTestId('expense-add').waitFor();

    // Reports: made and exported with the reports permission; the analytics and schedules are the owner's.
    await goTo(page, 'reports');
    await page.getByTestId('report-type').waitFor();
    if (offered.reports) await page.getByTestId('report-exports').waitFor();
    expect(await count('report-generate-submit')).toBe(offered.reports ? 1 : 0);
    expect(await count('report-csv')).toBe(offered.reports ? 1 : 0);
    expect(await count('report-exports')).toBe(offered.reports ? 1 : 0);
    expect(await count('analytics')).toBe(0);
    expect(await count('scheduled')).toBe(0);

    // The credit limit only with the credit permission (the server refuses anyone else a change).
    await open(`customers/${s.customer.id}/edit`);
    await expect.poll(() => page.getByTestId('customer-name').inputValue()).toBe(s.customer.name);
    expect(await count('customer-credit_limit')).toBe(offered.creditLimit ? 1 : 0);

    // Customers: a payment taken by anyone; a write-off with the credit permission.
    await open(`customers/${s.customer.id}`);
    const balance = page.getByTestId('customer-balance');
    await balance.filter({ hasText: 'TSh 3,000' }).waitFor();
    expect(await count('credit-pay')).toBe(1);
    expect(await count('write-off')).toBe(offered.writeOff ? 1 : 0);
    if (offered.writeOff) {
      await page.getByTestId('write-off').click();
      await page.getByTestId('write-off-reason').fill('the shop forgives it');
      await page.getByTestId('write-off-submit').click();
      await balance.filter({ hasText: 'TSh 0' }).waitFor();
      expect((await s.as('GET', `/credits?customer_id=${s.customer.id}`)).map((x: { status: string }) => x.status)).toEqual([
        'written_off',
      ]);
    }

    // Sales: the owner's sale, reprinted by anyone; no refund without the permission; a void by a manager.
    await open(`sales/${s.sale.id}`);
    await page.getByTestId('sale-reprint').waitFor();
    expect(await count('sale-refund')).toBe(0);
    expect(await count('sale-void')).toBe(offered.void ? 1 : 0);
    if (offered.void) {
      await page.getByTestId('sale-void').click();
      await page.getByTestId('void-reason').fill('rang up twice');
      await page.getByTestId('void-submit').click();
      await expect.poll(() => page.getByTestId('sale-status').first().textContent()).toBe('Void');
      expect((await s.as('GET', `/pos/transactions/${s.sale.id}`)).status).toBe('void');
    }
    // A sale partly refunded: the server voids none (409), so a manager is offered no Void on it either.
    if (offered.void) {
      const refused = await shop.t.request('POST', `/pos/transactions/${s.partly.id}/void`, {
        token: member.token,
        body: { reason: 'forced' },
      });
      expect(refused.status, refused.text).toBe(409);
      await open(`sales/${s.partly.id}`);
      await page.getByTestId('sale-reprint').waitFor();
      expect(await count('sale-void')).toBe(0);
    }
    // Their own sale of a minute ago: anyone may void it (still no refund without the permission).
    const own = await call(member.token, 'POST', '/pos/sale', { lines: [{ product_id: s.soda.id, qty: 1 }], payment_method: 'Cash' });
    await open(`sales/${own.id}`);
    await page.getByTestId('sale-void').waitFor();
    expect(await count('sale-refund')).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await context.close();
  });
});
