/**
 * Every operation of /api/v1/openapi.json has a unique, readable verbNoun operationId, set in its
 * route definition: client generators name their functions by it, and the companion agent names
 * its tools by it, so a renamed id is a breaking change for its allowlist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const pascal = (word: string) => word.replace(/(^|[-_.])([a-z0-9])/gi, (_, __, ch: string) => ch.toUpperCase());
/** The id a generator makes up from method and path (`postCreditsCustomersByCustomerIdPayments`), which an id must not be. */
const pathDerived = (method: string, path: string) =>
  method.toLowerCase() +
  path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith('{') ? `By${pascal(seg.slice(1, -1))}` : pascal(seg)))
    .join('');

describe('OpenAPI operation ids', () => {
  let t: TestApp;
  let ids: Map<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.request('GET', '/openapi.json')).body;
    ids = new Map();
    for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const method of METHODS) if (item[method]) ids.set(`${method.toUpperCase()} ${path}`, item[method].operationId!);
    }
  });
  afterAll(() => t.close());

  it('gives every operation a unique verbNoun operationId, none derived from its path', () => {
    expect(ids.size).toBeGreaterThan(200);
    for (const [op, id] of ids) {
      expect(id, op).toMatch(/^[a-z]+([A-Z][A-Za-z0-9]*)?$/);
      const [method, path] = op.split(' ');
      // `getStaffKpis` reads well either way; `postCreditsCustomersByCustomerIdPayments` does not.
      if (path!.includes('{') || path!.split('/').length > 3)
        expect(id, `${op} is named from its path`).not.toBe(pathDerived(method!, path!));
    }
    const seen = new Map<string, string>();
    for (const [op, id] of ids) {
      expect(seen.get(id), `${id} is used by ${seen.get(id)} and ${op}`).toBeUndefined();
      seen.set(id, op);
    }
  });

  it('names the operations an integrator calls most as they read', () => {
    expect(ids.get('POST /credits/customers/{customer_id}/payments')).toBe('recordCustomerPayment');
    expect(ids.get('GET /inventory/products')).toBe('listProducts');
    expect(ids.get('POST /pos/sale')).toBe('createSale');
    expect(ids.get('POST /auth/login')).toBe('login');
    expect(ids.get('PATCH /inventory/products/{id}')).toBe('updateProduct');
    expect(ids.get('POST /inventory/products/{id}/adjust')).toBe('adjustStock');
    expect(ids.get('GET /pos/summary')).toBe('getSalesSummary');
    expect(ids.get('GET /sync/ws')).toBe('openRealtimeChannel');
  });
});
