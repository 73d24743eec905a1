/**
 * The tool catalogue built from the API's own OpenAPI document. How the planner reads questions is
 * the shared planner's, tested in shared/src/ai/planner.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, checkArgs, split } from '../src/tools/catalog.js';
import { ALLOWLIST } from '../src/tools/allowlist.js';
import { type Api, startApi } from './harness.js';

describe("the tool catalogue from the API's OpenAPI document", () => {
  let api: Api;
  beforeAll(async () => (api = await startApi()));
  afterAll(() => api.close());

  it('finds every allowlisted operation, with its parameters and body as one flat schema', async () => {
    const doc = (await api.t.request('GET', '/openapi.json')).body;
    const { tools, missing } = buildCatalog(doc);
    expect(missing).toEqual([]);
    expect(tools.size).toBe(ALLOWLIST.length);
    const adjust = tools.get('adjustStock')!;
    expect(adjust).toMatchObject({ kind: 'write', method: 'post', path: '/inventory/products/{id}/adjust', pathParams: ['id'] });
    expect(adjust.inputSchema.required).toEqual(expect.arrayContaining(['id', 'qty_change', 'reason']));
    expect(JSON.stringify(adjust.inputSchema)).not.toContain('$ref');
    expect(checkArgs(adjust, { id: 'x', qty_change: 2 })).toEqual({ ok: false, problem: 'missing arguments: reason' });
    expect(checkArgs(adjust, { id: 'x', qty_change: 2, reason: 'r', drop_table: 1 })).toEqual({
      ok: false,
      problem: 'unknown arguments: drop_table',
    });
    expect(split(adjust, { id: 'a/b', qty_change: 2, reason: 'r' })).toEqual({
      path: '/inventory/products/a%2Fb/adjust',
      query: {},
      body: { qty_change: 2, reason: 'r' },
    });
    expect(tools.get('listCustomersOwing')!.queryParams).toEqual(['overdue']);
    // Issue 52: what to order, the purchase orders and the stock-takes, read-only.
    expect(tools.get('listReorderSuggestions')).toMatchObject({ kind: 'read', method: 'get', path: '/inventory/reorder-suggestions' });
    expect(tools.get('listReorderSuggestions')!.queryParams).toEqual(['store_id', 'cover_days']);
    expect(tools.get('listPurchaseOrders')).toMatchObject({ kind: 'read', method: 'get', path: '/suppliers/purchase-orders' });
    expect(tools.get('listPurchaseOrders')!.queryParams).toEqual(expect.arrayContaining(['status', 'page_size']));
    expect(tools.get('listStockTakes')).toMatchObject({ kind: 'read', path: '/inventory/stock-takes', queryParams: ['status', 'limit'] });
    expect(tools.get('getStockTake')).toMatchObject({ kind: 'read', path: '/inventory/stock-takes/{id}', pathParams: ['id'] });
  });

  it('becomes a tool by one line: a new allowlist entry is found by its operationId', async () => {
    const doc = (await api.t.request('GET', '/openapi.json')).body;
    const { tools, missing } = buildCatalog(doc, [
      { operationId: 'getSupplierStats', kind: 'read', description: 'Supplier figures', sw: 'wasambazaji' },
      { operationId: 'getNothingAtAll', kind: 'read', description: '-', sw: '-' },
    ]);
    expect(tools.get('getSupplierStats')).toMatchObject({ method: 'get', path: '/suppliers/stats' });
    expect(missing).toEqual(['getNothingAtAll']);
  });
});
