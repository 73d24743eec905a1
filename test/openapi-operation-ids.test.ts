/**
 * Every operation of /api/v1/openapi.json has a unique, stable operationId: the companion agent
 * names its tools by them, so a renamed id is a breaking change for its allowlist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdFor, withOperationIds } from '../server/src/lib/docs.js';
import { createTestApp, type TestApp } from './setup/test-app.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

describe('OpenAPI operation ids', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('gives every operation a unique camelCase operationId', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const ids: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        ids.push(op.operationId!);
      }
    }
    expect(ids.length).toBeGreaterThan(150);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/pos/summary'].get.operationId).toBe('getPosSummary');
    expect(doc.paths['/inventory/products/{id}/adjust'].post.operationId).toBe('postInventoryProductsByIdAdjust');
    expect(doc.paths['/credits/customers/{customer_id}/payments'].post.operationId).toBe('postCreditsCustomersByCustomerIdPayments');
    expect(doc.paths['/inventory/low-stock'].get.operationId).toBe('getInventoryLowStock');
  });

  it('derives ids from method and path and keeps an id a route sets itself', () => {
    expect(operationIdFor('DELETE', '/reports/scheduled/{id}')).toBe('deleteReportsScheduledById');
    const doc = withOperationIds({ paths: { '/a': { get: { operationId: 'mine' }, post: {} } } });
    expect(doc.paths['/a']).toEqual({ get: { operationId: 'mine' }, post: { operationId: 'postA' } });
  });
});
