/**
 * The back office's money screens at 390×844 and 1280×800: the owner receives a delivery of 24 of a
 * product (its stock goes up by exactly 24), takes a credit payment of part of a customer's debt
 * (the balance shown falls by exactly that), and a payment retried after its answer was lost is
 * recorded once (the first answer dropped by the browser; the form keeps its Idempotency-Key);
 * pays a supplier part of a delivery received on credit, then the rest of the supplier's balance
 * (the owed figure falls by exactly each amount, the API agrees, a retry after a lost answer pays
 * once, and more than is owed is refused on its field with nothing paid);
 * sends stock to a second store, a quantity beyond the stock refused with its line marked; records
 * an expense, which the list and the month's summary show; sends a customer a reminder by SMS and
 * writes their tab off with a reason, which a cashier without the credit permission is not offered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, e164, messageCount, registerOwner, type Session } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { callAs, goTo, openOffice, pick, signInOffice, type Viewport, VIEWPORTS } from './office.js';

describe('the back office: suppliers, deliveries, customers and credit', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const call = (owner: Session, method: string, path: string, body?: unknown) => callAs(shop, owner, method, path, body);
  /** An owner with a product, a supplier and a customer who owes 10,000 from a credit sale. */
  const setUp = async (viewport: Viewport) => {
    const owner = await registerOwner(shop.t);
    const soda = await call(owner, 'POST', '/inventory/products', {
      name: `Soda ${viewport}`,
      selling_price: 1000,
      cost_price: 700,
      stock: 10,
    });
    const supplier = await call(owner, 'POST', '/suppliers', { name: `Bakhresa ${viewport}` });
    const customer = await call(owner, 'POST', '/customers', { name: `Bi. Zuhura ${viewport}`, phone: '0713000111' });
    await call(owner, 'POST', '/pos/sale', {
      lines: [{ product_id: soda.id, qty: 10 }],
      payment_method: 'Credit',
      customer_id: customer.id,
    });
    return { owner, soda, supplier, customer };
  };
  const stockOf = async (owner: Session, id: string) => (await call(owner, 'GET', `/inventory/products/${id}`)).stock as number;
  const payments = async (owner: Session, customerId: string) =>
    (await call(owner, 'GET', `/credits/customers/${customerId}`)).payments as unknown[];

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'receives a delivery of 24 and the stock goes up by exactly 24, at %s size',
    async (viewport) => {
      const { owner, soda, supplier } = await setUp(viewport);
      const before = await stockOf(owner, soda.id);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'suppliers');
      await page.getByTestId('receive-delivery').click();
      await pick(page, 'delivery-supplier', 'Bakh', supplier.id);
      await pick(page, 'line-0-product', 'soda', soda.id);
      await page.getByTestId('line-0-qty').fill('24');
      expect(await page.getByTestId('line-0-cost').inputValue()).toBe('700');
      await page.getByTestId('line-0-cost').fill('650');
      await page.getByTestId('delivery-save').click();
      await page.getByTestId('supplier-page').waitFor();
      expect(await page.getByTestId('deliveries-row').count()).toBe(1);
      expect(await page.getByTestId('supplier-owed').textContent()).toBe('TSh 15,600');
      expect(await stockOf(owner, soda.id)).toBe(before + 24);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'takes part of a credit debt, the balance falls by exactly that, and a retry after a lost answer is taken once, at %s size',
    async (viewport) => {
      const { owner, customer } = await setUp(viewport);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'customers');
      await page.getByTestId('customer-owing').check();
      await page.getByRole('link', { name: customer.name }).click();
      const balance = page.getByTestId('customer-balance');
      await balance.waitFor();
      expect(await balance.textContent()).toBe('TSh 10,000');

      await page.getByTestId('credit-pay-amount').fill('4000');
      await page.getByTestId('credit-pay-method').selectOption('M-Pesa');
      await page.getByTestId('credit-pay-reference').fill('QK7H2M9X1P');
      await page.getByTestId('credit-pay-submit').click();
      await page.getByTestId('credit-pay-done').waitFor();
      await balance.filter({ hasText: 'TSh 6,000' }).waitFor();

      // The server takes the next payment, but its answer never reaches the browser.
      let dropped = 0;
      await page.route('**/credits/customers/*/payments', async (route) => {
        if (dropped++ === 0) {
          await route.fetch();
          await route.abort('connectionreset');
        } else await route.continue();
      });
      await page.getByTestId('credit-pay-amount').fill('1500');
      await page.getByTestId('credit-pay-submit').click();
      await page.getByTestId('error').waitFor();
      expect(await page.getByTestId('credit-pay-amount').inputValue()).toBe('1500');
      await page.getByTestId('credit-pay-submit').click();
      await page.getByTestId('credit-pay-done').waitFor();
      await balance.filter({ hasText: 'TSh 4,500' }).waitFor();
      expect(await balance.textContent()).toBe('TSh 4,500');
      expect(dropped).toBe(2);
      expect(await payments(owner, customer.id)).toHaveLength(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'pays part of a delivery on credit, then the rest of the balance; a lost answer pays once, too much pays nothing, at %s size',
    async (viewport) => {
      const { owner, soda, supplier } = await setUp(viewport);
      const supplierPayments = async () =>
        (await call(owner, 'GET', `/suppliers/${supplier.id}/payments`)) as Array<{
          amount: number;
          delivery_id: string | null;
          payment_method: string;
        }>;
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);

      // Received on credit: 20 at 650, nothing paid yet.
      await goTo(page, 'suppliers');
      await page.getByTestId('receive-delivery').click();
      await pick(page, 'delivery-supplier', 'Bakh', supplier.id);
      await page.getByTestId('delivery-invoice').fill(`INV-${viewport}`);
      await pick(page, 'line-0-product', 'soda', soda.id);
      await page.getByTestId('line-0-qty').fill('20');
      await page.getByTestId('line-0-cost').fill('650');
      await page.getByTestId('delivery-save').click();
      const owed = page.getByTestId('supplier-owed');
      await owed.waitFor();
      expect(await owed.textContent()).toBe('TSh 13,000');
      const [delivery] = await call(owner, 'GET', `/suppliers/${supplier.id}/deliveries`);
      expect(delivery).toMatchObject({ is_paid: false, paid_amount: 0, balance: 13000 });

      // Part of the delivery paid: the owed figure falls by exactly 5,000.
      await page.getByTestId('delivery-pay').click();
      await page.getByTestId('pay-delivery-amount').fill('5000');
      await page.getByTestId('pay-delivery-method').selectOption('M-Pesa');
      await page.getByTestId('pay-delivery-reference').fill('QK7H2M9X1P');
      await page.getByTestId('pay-delivery-submit').click();
      await owed.filter({ hasText: 'TSh 8,000' }).waitFor();
      const rows = page.getByTestId('supplier-payments-row');
      await rows.waitFor();
      expect(await rows.textContent()).toContain('TSh 5,000');
      expect(await page.getByTestId('deliveries-row').textContent()).toContain('TSh 8,000');

      // More than the supplier is owed: refused on the amount, which stays typed, and nothing paid.
      const rest = page.getByTestId('pay-supplier');
      await page.getByTestId('pay-supplier-amount').fill('8001');
      await page.getByTestId('pay-supplier-submit').click();
      await rest.getByTestId('error-amount').waitFor();
      expect(await rest.getByTestId('error-amount').textContent()).toContain('TZS 8000 is owed');
      expect(await page.getByTestId('pay-supplier-amount').inputValue()).toBe('8001');
      expect(await owed.textContent()).toBe('TSh 8,000');
      expect(await supplierPayments()).toHaveLength(1);

      // The rest of the balance: the server takes it, but its answer never reaches the browser; the retry pays nothing more.
      let dropped = 0;
      await page.route(`**/suppliers/${supplier.id}/pay`, async (route) => {
        if (dropped++ === 0) {
          await route.fetch();
          await route.abort('connectionreset');
        } else await route.continue();
      });
      await page.getByTestId('pay-supplier-amount').fill('8000');
      await page.getByTestId('pay-supplier-method').selectOption('Bank');
      await page.getByTestId('pay-supplier-submit').click();
      await rest.getByTestId('error').filter({ hasText: 'No connection' }).waitFor();
      expect(await page.getByTestId('pay-supplier-amount').inputValue()).toBe('8000');
      await page.getByTestId('pay-supplier-submit').click();
      await owed.filter({ hasText: 'TSh 0' }).waitFor();
      expect(dropped).toBe(2);
      // Nothing is owed: neither payment is offered any more.
      expect(await page.getByTestId('pay-supplier').count()).toBe(0);
      expect(await page.getByTestId('delivery-pay').count()).toBe(0);
      expect(await rows.count()).toBe(2);
      expect(await rows.first().textContent()).toContain('TSh 8,000');

      // The API agrees: nothing owed, two payments (the newest first), the delivery paid.
      expect((await call(owner, 'GET', `/suppliers/${supplier.id}`)).outstanding_balance).toBe(0);
      expect((await supplierPayments()).map((p) => [p.amount, p.delivery_id, p.payment_method])).toEqual([
        [8000, null, 'Bank'],
        [5000, delivery.id, 'M-Pesa'],
      ]);
      expect((await call(owner, 'GET', `/suppliers/${supplier.id}/deliveries`))[0]).toMatchObject({
        is_paid: true,
        paid_amount: 13000,
        balance: 0,
      });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'sends stock to another store, too much refused with the line marked, at %s size',
    async (viewport) => {
      const { owner, soda } = await setUp(viewport);
      await call(owner, 'PATCH', `/inventory/products/${soda.id}`, { stock: 30 });
      const branch = await addStore(shop.t, owner.orgId, `Kariakoo ${viewport}`);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'stock');
      await page.getByTestId('transfer-new').click();
      await page.getByTestId('transfer-to').selectOption(branch.id);
      await pick(page, 'transfer-0-product', 'Soda', soda.id);
      await page.getByTestId('transfer-0-qty').fill('31');
      await page.getByTestId('transfer-send').click();
      await page.getByTestId('error-lines.0.qty').waitFor();
      expect(await stockOf(owner, soda.id)).toBe(30);
      await page.getByTestId('transfer-0-qty').fill('12');
      await page.getByTestId('transfer-send').click();
      await page.getByTestId('transfers-row').waitFor();
      expect(await page.getByTestId('transfers-row').textContent()).toContain(`Kariakoo ${viewport}`);
      expect(await stockOf(owner, soda.id)).toBe(18);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    "records an expense, shown in the list and the month's summary, at %s size",
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'expenses');
      await page.getByTestId('expenses-empty').waitFor();
      await page.getByTestId('expense-add').click();
      await page.getByTestId('expense-title').fill('Umeme wa Novemba');
      await page.getByTestId('expense-category').selectOption('Utilities');
      await page.getByTestId('expense-amount').fill('45000');
      await page.getByTestId('expense-amount').press('Enter');
      await page.getByTestId('expenses-row').waitFor();
      expect(await page.getByTestId('expenses-row').textContent()).toContain('Umeme wa Novemba');
      expect(await page.getByTestId('expense-summary').textContent()).toContain('TSh 45,000');
      expect((await call(owner, 'GET', '/expenses')).map((x: { amount: number }) => x.amount)).toEqual([45000]);
      await context.close();
    },
  );

  it('sends a reminder by SMS and writes a tab off with a reason; a cashier without the credit permission is offered neither write-off', async () => {
    const { owner, customer } = await setUp('desk');
    const sent = await messageCount(shop.t, e164('0713000111'));
    const { context, page } = await openOffice(shop, 'desk');
    await signInOffice(page, owner.phone, owner.password);
    await page.goto(`${shop.origin}/office/customers/${customer.id}`);
    await page.getByTestId('customer-balance').filter({ hasText: 'TSh 10,000' }).waitFor();
    await page.getByTestId('remind').click();
    await page.getByTestId('reminded').waitFor();
    expect(await messageCount(shop.t, e164('0713000111'))).toBe(sent + 1);

    const cashier = await createStaff(shop.t, owner);
    const staff = await openOffice(shop, 'desk');
    await signInOffice(staff.page, cashier.phone, cashier.password);
    await staff.page.goto(`${shop.origin}/office/customers/${customer.id}`);
    await staff.page.getByTestId('customer-balance').waitFor();
    expect(await staff.page.getByTestId('write-off').count()).toBe(0);
    await staff.context.close();

    await page.getByTestId('write-off').first().click();
    await page.getByTestId('write-off-reason').fill('moved away, no way to reach her');
    await page.getByTestId('write-off-submit').click();
    await page.getByTestId('customer-balance').filter({ hasText: 'TSh 0' }).waitFor();
    const tabs = (await call(owner, 'GET', `/credits?customer_id=${customer.id}`)) as Array<{ status: string }>;
    expect(tabs.map((x) => x.status)).toEqual(['written_off']);
    await context.close();
  });
});
