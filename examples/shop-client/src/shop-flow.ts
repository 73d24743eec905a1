/**
 * A whole shop's first day through the Duka API, as an integrator writes it: types generated from
 * the server's OpenAPI document with openapi-typescript, calls through openapi-fetch. Every
 * request and answer below is checked by the TypeScript compiler against that document.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './generated/api.js';

export interface ShopFlowResult {
  store: string;
  stores: string[];
  visited: string;
  products: number;
  cashSaleTotal: number;
  creditSaleTotal: number;
  paid: number;
  owed: number;
  sugarStock: number;
  report: { rows: number; columns: string[] };
}

/** The answer's data, or an Error naming the operation and the server's message. */
function must<T>(what: string, result: { data?: { data: T }; error?: { message: string; errors: Array<{ code: string }> } }): T {
  if (result.error || !result.data)
    throw new Error(`${what}: ${result.error?.errors[0]?.code ?? 'no answer'}: ${result.error?.message ?? ''}`);
  return result.data.data;
}

export async function runShopFlow(baseUrl: string, opts: { fetch?: typeof fetch; phone?: string } = {}): Promise<ShopFlowResult> {
  const api = createClient<paths>({ baseUrl, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  let token: string | undefined;
  const bearer: Middleware = {
    onRequest({ request }) {
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  api.use(bearer);

  const phone = opts.phone ?? `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const password = 'kariakoo1';
  const registered = must(
    'registerAccount',
    await api.POST('/auth/register', {
      body: {
        first_name: 'Asha',
        last_name: 'Mushi',
        phone,
        password,
        confirm_password: password,
        shop: { name: 'Mama Asha Duka', business_type: 'retail', region: 'dar-es-salaam' },
      },
    }),
  );
  const signedIn = must('login', await api.POST('/auth/login', { body: { identifier: phone, password } }));
  if (!('access_token' in signedIn)) throw new Error('login: an owner is never asked for MFA');
  token = signedIn.access_token;

  const me = must('getMe', await api.GET('/accounts/me'));
  const kariakoo = must(
    'createStore',
    await api.POST('/stores', { body: { name: 'Duka Kariakoo', code: 'KRK', open_hours: '07:00-21:00' } }),
  );
  const stores = must('listStores', await api.GET('/stores'));
  // Working in another store takes the new tokens; the answer's store is never null.
  const switched = must('switchStore', await api.POST('/accounts/switch-store', { body: { store_id: kariakoo.id } }));
  token = switched.tokens.access_token;
  const visited = switched.store.name;
  token = must('switchStore', await api.POST('/accounts/switch-store', { body: { store_id: registered.store_id } })).tokens.access_token;

  const category = must('createCategory', await api.POST('/inventory/categories', { body: { name: 'Vyakula (Food)' } }));
  const sugar = must(
    'createProduct',
    await api.POST('/inventory/products', {
      body: { name: 'Sugar 1 kg', category_id: category.id, cost_price: 2800, selling_price: 3200, stock: 40, reorder_point: 10 },
    }),
  );
  const rice = must(
    'createProduct',
    await api.POST('/inventory/products', {
      body: { name: 'Rice 2 kg', category_id: category.id, cost_price: 4600, selling_price: 5500, stock: 20 },
    }),
  );

  const cashSale = must(
    'createSale',
    await api.POST('/pos/sale', {
      params: { header: { 'idempotency-key': `cash-sale-${phone}` } },
      body: {
        lines: [
          { product_id: sugar.id, qty: 2 },
          { product_id: rice.id, qty: 1 },
        ],
        payment_method: 'Cash',
      },
    }),
  );

  const customer = must(
    'createCustomer',
    await api.POST('/customers', { body: { name: 'Mzee Hamisi', phone: '0765432109', credit_limit: 50000 } }),
  );
  const creditSale = must(
    'createSale',
    await api.POST('/pos/sale', { body: { lines: [{ product_id: rice.id, qty: 3 }], payment_method: 'Credit', customer_id: customer.id } }),
  );
  const payment = must(
    'recordCustomerPayment',
    await api.POST('/credits/customers/{customer_id}/payments', {
      params: { path: { customer_id: customer.id }, header: { 'idempotency-key': `payment-${phone}` } },
      body: { amount: 10000, method: 'M-Pesa', reference: 'QK7H2M9X1P' },
    }),
  );
  const credit = must(
    'getCreditProfile',
    await api.GET('/credits/customers/{customer_id}', { params: { path: { customer_id: customer.id } } }),
  );
  const sugarNow = must('getProduct', await api.GET('/inventory/products/{id}', { params: { path: { id: sugar.id } } }));

  // A report answers CSV or JSON by `format`, so its type is either; asked for JSON, it is the envelope.
  const generated = await api.POST('/reports/generate', { body: { report_type: 'sales', format: 'json', range: '7d' } });
  if (!generated.data || typeof generated.data === 'string') throw new Error(`generateReport: ${generated.error?.message ?? 'not JSON'}`);
  const report = generated.data.data;

  return {
    store: me.store?.name ?? '(none)',
    stores: stores.items.map((s) => s.name).sort(),
    visited,
    products: 2,
    cashSaleTotal: cashSale.total,
    creditSaleTotal: creditSale.total,
    paid: payment.amount,
    owed: credit.total_outstanding,
    sugarStock: sugarNow.stock,
    report: { rows: report.rows.length, columns: report.columns },
  };
}
