import { randomUUID } from 'node:crypto';
import {
  AdjustStockInput,
  CreateExpenseInput,
  CreateSaleInput,
  CreateStaffInput,
  CreateSupplierDeliveryInput,
  CreatePaymentRequestInput,
  CreateUserInput,
  RecordCreditPaymentInput,
  RecordSupplierPaymentInput,
  UpdateOrganisationInput,
} from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../server/src/lib/auth/middleware.js';
import type { AuthedContext } from '../../server/src/lib/context.js';
import { createOrgUser, deactivateUser } from '../../server/src/modules/accounts/services/users.js';
import { asOrg } from '../../server/src/modules/admin/services/admin-context.js';
import { updateOrganisation } from '../../server/src/modules/accounts/services/organisation.js';
import { recordCreditPayment } from '../../server/src/modules/credits/services/credit-payments.js';
import { writeOffTab } from '../../server/src/modules/credits/services/credit-tabs.js';
import { createExpense } from '../../server/src/modules/expenses/services/expenses.js';
import { updateProduct } from '../../server/src/modules/inventory/services/products.js';
import { adjustStock } from '../../server/src/modules/inventory/services/stock.js';
import { createPaymentRequest } from '../../server/src/modules/payments/requests/payment-requests.js';
import { cancelPaymentRequest, retryPaymentRequest } from '../../server/src/modules/payments/requests/request-actions.js';
import { recordSale } from '../../server/src/modules/pos/sale/pipeline.js';
import { refundSale, voidSale } from '../../server/src/modules/pos/services/sale-state.js';
import { createStaff as hireStaff } from '../../server/src/modules/staff/services/create-staff.js';
import { deactivateStaff } from '../../server/src/modules/staff/services/deactivate-staff.js';
import { resetStaffPassword } from '../../server/src/modules/staff/services/reset-password.js';
import { setStaffPermissions, setStaffShift, updateStaff } from '../../server/src/modules/staff/services/update-staff.js';
import { createStore, deactivateStore, setStoreStatus, updateStore } from '../../server/src/modules/stores/services/write-store.js';
import { createDelivery } from '../../server/src/modules/suppliers/services/deliveries.js';
import { payDelivery, paySupplier } from '../../server/src/modules/suppliers/services/supplier-payments.js';
import { resolveConflict } from '../../server/src/sync/push/services/conflicts.js';
import { createStaff, insertCreditSale, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { newDelivery, newProduct, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const OWNER_ONLY = 'only the shop owner can do this';
const NO_STORE = 'your session has no active store; switch to a store first';

describe('service verbs check the caller themselves, whoever calls them', () => {
  let t: TestApp;
  let owner: Session;
  let ownerCtx: AuthedContext;
  let cashierCtx: AuthedContext;
  let cashierId: string;
  let product: { id: string };
  let saleId: string;
  let supplier: { id: string };
  let delivery: { id: string };
  let customerId: string;
  let tabId: string;

  /** The context a request carrying this access token gets from the route middleware. */
  const ctxOf = (token: string) => authenticate({ ...t.deps, actor: null, requestId: 'verb-authorization' }, token);
  const get = async (path: string) => {
    const res = await t.request('GET', path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const count = async (
    table: 'stores' | 'users' | 'supplier_payments' | 'transactions' | 'stock_adjustments' | 'expenses' | 'deliveries' | 'credit_payments',
  ) =>
    Number(
      (
        await t.db.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', owner.orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
    ownerCtx = await ctxOf(owner.token);
    const cashier = await createStaff(t, owner);
    cashierId = cashier.user.id;
    cashierCtx = await ctxOf(cashier.token);
    product = await newProduct(t, owner, { name: 'Sukari 1kg', selling_price: 3200, cost_price: 2600, stock: 50 });
    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: product.id, qty: 2 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    saleId = sale.body.data.id;
    supplier = await newSupplier(t, owner);
    delivery = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 50_000 });
    const customer = await t.request('POST', '/customers', { token: owner.token, body: { name: 'Halima Omari', phone: uniquePhone() } });
    customerId = customer.body.data.id;
    tabId = (await insertCreditSale(t, { orgId: owner.orgId, storeId: owner.storeId, customerId, total: 12_000 })).tabId;
  });
  afterAll(() => t.close());

  it("refuses a cashier (staff, no permissions) every money, stock and management verb above a member's level, writing nothing", async () => {
    const before = {
      stores: await count('stores'),
      users: await count('users'),
      payments: await count('supplier_payments'),
      sales: await count('transactions'),
    };
    const payment = RecordSupplierPaymentInput.parse({ amount: 10_000, payment_method: 'Cash' });
    const refusals: Array<[string, () => Promise<unknown>, string]> = [
      ['refundSale', () => refundSale(cashierCtx, saleId, 'customer returned it'), 'you are not allowed to give refunds'],
      [
        'recordSale with a discount',
        () =>
          recordSale(
            cashierCtx,
            CreateSaleInput.parse({ lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash', discount_pct: 10 }),
          ),
        'you are not allowed to give discounts',
      ],
      ['payDelivery', () => payDelivery(cashierCtx, delivery.id, payment), OWNER_ONLY],
      ['paySupplier', () => paySupplier(cashierCtx, supplier.id, payment), OWNER_ONLY],
      ['createStore', () => createStore(cashierCtx, { name: 'Tawi la Mbezi' }), OWNER_ONLY],
      ['updateStore', () => updateStore(cashierCtx, owner.storeId, { name: 'Duka la Juma' }), OWNER_ONLY],
      ['setStoreStatus', () => setStoreStatus(cashierCtx, owner.storeId, 'closed'), OWNER_ONLY],
      ['deactivateStore', () => deactivateStore(cashierCtx, owner.storeId), OWNER_ONLY],
      ['createStaff', () => hireStaff(cashierCtx, CreateStaffInput.parse({ first_name: 'Neema', phone: uniquePhone() })), OWNER_ONLY],
      ['updateStaff', () => updateStaff(cashierCtx, cashierId, { role: 'manager' }), OWNER_ONLY],
      ['setStaffPermissions', () => setStaffPermissions(cashierCtx, cashierId, { can_refund: true, can_discount: true }), OWNER_ONLY],
      ['setStaffShift', () => setStaffShift(cashierCtx, cashierId, { employment_status: 'on_leave' }), OWNER_ONLY],
      ['deactivateStaff', () => deactivateStaff(cashierCtx, cashierId), OWNER_ONLY],
      ['resetStaffPassword', () => resetStaffPassword(cashierCtx, cashierId), OWNER_ONLY],
      [
        'createOrgUser',
        () => createOrgUser(cashierCtx, CreateUserInput.parse({ first_name: 'Neema', phone: uniquePhone(), role: 'manager' })),
        OWNER_ONLY,
      ],
      ['deactivateUser', () => deactivateUser(cashierCtx, owner.userId), OWNER_ONLY],
      ['updateOrganisation', () => updateOrganisation(cashierCtx, UpdateOrganisationInput.parse({ name: 'Duka la Juma' })), OWNER_ONLY],
      ['resolveConflict', () => resolveConflict(cashierCtx, saleId, 'checked'), OWNER_ONLY],
    ];
    for (const [verb, call, message] of refusals) {
      await expect(call(), verb).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403, message });
    }

    expect(await get(`/inventory/products/${product.id}`)).toMatchObject({ stock: 48, selling_price: 3200 });
    expect(await get(`/pos/transactions/${saleId}`)).toMatchObject({ status: 'paid' });
    expect(await get(`/suppliers/${supplier.id}`)).toMatchObject({ outstanding_balance: 50_000 });
    expect(await get('/accounts/organisation')).toMatchObject({ name: 'Mama Asha Duka' });
    expect(await get(`/staff/${cashierId}`)).toMatchObject({
      role: 'staff',
      is_active: true,
      employment_status: 'active',
      can_refund: false,
      can_discount: false,
    });
    expect(await get(`/stores/${owner.storeId}`)).toMatchObject({ name: 'Mama Asha Duka', is_active: true, status: 'open' });
    expect({
      stores: await count('stores'),
      users: await count('users'),
      payments: await count('supplier_payments'),
      sales: await count('transactions'),
    }).toEqual(before);
  });

  it('refuses a session without an active store every verb that books money or stock to the store, writing nothing', async () => {
    const noStore: AuthedContext = { ...cashierCtx, actor: { ...cashierCtx.actor, storeId: null } };
    const before = {
      sales: await count('transactions'),
      adjustments: await count('stock_adjustments'),
      expenses: await count('expenses'),
      deliveries: await count('deliveries'),
      credit: await count('credit_payments'),
    };
    const calls: Array<[string, () => Promise<unknown>]> = [
      [
        'recordSale',
        () => recordSale(noStore, CreateSaleInput.parse({ lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' })),
      ],
      ['voidSale', () => voidSale(noStore, saleId, 'rung up twice')],
      ['refundSale', () => refundSale(noStore, saleId, 'customer returned it')],
      ['adjustStock', () => adjustStock(noStore, product.id, AdjustStockInput.parse({ qty_change: -5, reason: 'damaged' }))],
      ['updateProduct', () => updateProduct(noStore, product.id, { selling_price: 1 })],
      [
        'createDelivery',
        () => createDelivery(noStore, supplier.id, CreateSupplierDeliveryInput.parse({ status: 'delivered', total_value: 9_000 })),
      ],
      [
        'recordCreditPayment',
        () => recordCreditPayment(noStore, customerId, RecordCreditPaymentInput.parse({ amount: 2_000, method: 'Cash' })),
      ],
      ['createExpense', () => createExpense(noStore, CreateExpenseInput.parse({ title: 'Umeme', category: 'Utilities', amount: 15_000 }))],
      [
        'createPaymentRequest',
        () =>
          createPaymentRequest(
            noStore,
            CreatePaymentRequestInput.parse({
              sale: { id: randomUUID(), lines: [{ product_id: product.id, qty: 1 }], payment_method: 'M-Pesa' },
              phone: '0754 123 456',
            }),
          ),
      ],
      ['cancelPaymentRequest', () => cancelPaymentRequest(noStore, randomUUID())],
      ['retryPaymentRequest', () => retryPaymentRequest(noStore, randomUUID(), {})],
      [
        'payDelivery',
        () =>
          payDelivery(
            { ...noStore, actor: { ...ownerCtx.actor, storeId: null } },
            delivery.id,
            RecordSupplierPaymentInput.parse({ amount: 1_000, payment_method: 'Cash' }),
          ),
      ],
    ];
    for (const [verb, call] of calls) {
      await expect(call(), verb).rejects.toMatchObject({ code: 'INVALID_STATE', status: 409, message: NO_STORE });
    }
    expect(await get(`/inventory/products/${product.id}`)).toMatchObject({ stock: 48, selling_price: 3200 });
    expect(await get(`/pos/transactions/${saleId}`)).toMatchObject({ status: 'paid' });
    expect(await get(`/credits/customers/${customerId}`)).toMatchObject({ total_outstanding: 12_000 });
    expect({
      sales: await count('transactions'),
      adjustments: await count('stock_adjustments'),
      expenses: await count('expenses'),
      deliveries: await count('deliveries'),
      credit: await count('credit_payments'),
    }).toEqual(before);
  });

  it("refuses another shop's cashier this shop's sales, stock, deliveries and tabs, as if they did not exist", async () => {
    const other = await registerOwner(t);
    const outsider = await ctxOf((await createStaff(t, other)).token);
    const calls: Array<[string, () => Promise<unknown>, string]> = [
      ['voidSale', () => voidSale(outsider, saleId, 'rung up twice'), 'transaction not found'],
      [
        'adjustStock',
        () => adjustStock(outsider, product.id, AdjustStockInput.parse({ qty_change: -5, reason: 'damaged' })),
        'product not found',
      ],
      ['updateProduct', () => updateProduct(outsider, product.id, { selling_price: 1 }), 'product not found'],
      [
        'createDelivery',
        () => createDelivery(outsider, supplier.id, CreateSupplierDeliveryInput.parse({ status: 'delivered', total_value: 9_000 })),
        'supplier not found',
      ],
      [
        'recordCreditPayment',
        () => recordCreditPayment(outsider, customerId, RecordCreditPaymentInput.parse({ amount: 2_000, method: 'Cash' })),
        'customer not found',
      ],
      ['writeOffTab', () => writeOffTab(outsider, tabId, { reason: 'moved away' }), 'credit tab not found'],
    ];
    for (const [verb, call, message] of calls) {
      await expect(call(), verb).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404, message });
    }
    expect(await get(`/inventory/products/${product.id}`)).toMatchObject({ stock: 48, selling_price: 3200 });
    expect(await get(`/pos/transactions/${saleId}`)).toMatchObject({ status: 'paid' });
    expect(await get(`/credits/customers/${customerId}`)).toMatchObject({ total_outstanding: 12_000 });
  });

  it("refuses an owner the platform administrator's way into another organisation", async () => {
    const other = await registerOwner(t);
    await expect(asOrg(ownerCtx, other.orgId)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      message: 'only platform administrators can do this',
    });
  });

  it("lets the owner's context through the same verbs: a sale and a stock adjustment", async () => {
    const sale = await recordSale(
      ownerCtx,
      CreateSaleInput.parse({ lines: [{ product_id: product.id, qty: 3 }], payment_method: 'Cash', discount_pct: 10 }),
    );
    expect(sale.row).toMatchObject({ status: 'paid', total: 864_000 });
    expect(await adjustStock(ownerCtx, product.id, AdjustStockInput.parse({ qty_change: -5, reason: 'damaged' }))).toMatchObject({
      stock: 40,
    });
    expect(await get(`/inventory/products/${product.id}`)).toMatchObject({ stock: 40 });
  });
});
