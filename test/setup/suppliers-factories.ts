/** Suppliers, deliveries and products for the supplier and expense tests, made through the API. */
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

type Who = { token: string };

export async function newSupplier(t: TestApp, s: Who, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/suppliers', { token: s.token, body: { name: 'Bakhresa Wholesale', ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; name: string; outstanding_balance: number };
}

export async function newProduct(t: TestApp, s: Who, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/inventory/products', {
    token: s.token,
    body: { name: 'Unga wa Ngano 2kg', selling_price: 4500, cost_price: 3500, stock: 0, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; name: string };
}

export async function newDelivery(t: TestApp, s: Who, supplierId: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/suppliers/${supplierId}/deliveries`, { token: s.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; total_value: number; balance: number; status: string };
}

export async function productOf(t: TestApp, s: Who, id: string) {
  const res = await t.request('GET', `/inventory/products/${id}`, { token: s.token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { stock: number; cost_price: number };
}

export async function balanceOf(t: TestApp, s: Who, supplierId: string): Promise<number> {
  const res = await t.request('GET', `/suppliers/${supplierId}`, { token: s.token });
  expect(res.status, res.text).toBe(200);
  return res.body.data.outstanding_balance;
}
