/**
 * The same tools over MCP: the SDK's own Client with its Streamable HTTP transport, the caller's
 * bearer token passed through to the API, the allowlist as the tool list, and a write that waits
 * for confirm_action and runs once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addProduct,
  type Agent,
  type Api,
  createStaff,
  registerOwner,
  sell,
  type Session,
  type Staff,
  startAgent,
  startApi,
} from './harness.js';

describe('the companion agent over MCP', () => {
  let api: Api;
  let agent: Agent;
  let owner: Session;
  let cashier: Staff;
  let sugar: string;
  const clients: Client[] = [];

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'duka-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${agent.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    return client;
  }
  const json = (r: any) => JSON.parse(r.content[0].text);

  beforeAll(async () => {
    api = await startApi();
    agent = await startAgent(api.url);
    owner = await registerOwner(api.t);
    cashier = await createStaff(api.t, owner);
    sugar = await addProduct(api, owner, { name: 'Sugar 1 kg', price: 3000, stock: 40 });
    await sell(api, owner, [[sugar, 3]]);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await agent.close();
    await api.close();
  });

  it('lists the allowlisted tools with their schemas and calls a read tool with the caller’s token', async () => {
    const client = await connect(owner.token);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['getSalesSummary', 'listProducts', 'updateProduct', 'confirm_action']));
    expect(names).not.toContain('deleteProduct');
    expect(tools.find((t) => t.name === 'getSalesSummary')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'listProducts')!.inputSchema.properties).toHaveProperty('search');

    const res = await client.callTool({ name: 'getSalesSummary', arguments: {} });
    expect(res.isError).toBe(false);
    expect(json(res)).toMatchObject({ tool: 'getSalesSummary', status: 'ok', data: { total_sales: 9000, transaction_count: 1 } });
  });

  it("refuses a cashier the owner's data as the API does", async () => {
    const client = await connect(cashier.token);
    const res = await client.callTool({ name: 'getCashflow', arguments: {} });
    expect(res.isError).toBe(true);
    expect(json(res)).toMatchObject({ status: 'forbidden', http_status: 403 });
    expect(json(res).data).toBeUndefined();
    // Issue 52: purchase orders need the suppliers permission, stock-takes the stock one.
    for (const name of ['listPurchaseOrders', 'listStockTakes']) {
      const refused = await client.callTool({ name, arguments: {} });
      expect(refused.isError, name).toBe(true);
      expect(json(refused), name).toMatchObject({ status: 'forbidden', http_status: 403 });
    }
  });

  it('offers what to order, the purchase orders and the stock-takes as read-only tools (issue 52)', async () => {
    const client = await connect(owner.token);
    const { tools } = await client.listTools();
    for (const name of ['listReorderSuggestions', 'listPurchaseOrders', 'getPurchaseOrder', 'listStockTakes', 'getStockTake'])
      expect(tools.find((t) => t.name === name)?.annotations, name).toMatchObject({ readOnlyHint: true });
    // Sugar: 40 in, 3 sold, reorder point 5: not to be ordered; the suggestions come from the API as they are.
    const res = await client.callTool({ name: 'listReorderSuggestions', arguments: { cover_days: 14 } });
    expect(res.isError).toBe(false);
    expect(json(res)).toMatchObject({
      tool: 'listReorderSuggestions',
      status: 'ok',
      data: { store_id: owner.storeId, window_days: 28, cover_days: 14, groups: [] },
    });
    const takes = await client.callTool({ name: 'listStockTakes', arguments: {} });
    expect(json(takes)).toMatchObject({ status: 'ok', data: [] });
  });

  it('proposes a write, runs it only through confirm_action, once, and only for the user it was offered to', async () => {
    const client = await connect(owner.token);
    const price = async () => (await api.t.request('GET', `/inventory/products/${sugar}`, { token: owner.token })).body.data.selling_price;
    const proposed = json(await client.callTool({ name: 'updateProduct', arguments: { id: sugar, selling_price: 3300 } }));
    expect(proposed).toMatchObject({ status: 'awaiting_user_confirmation', summary: 'Change Sugar 1 kg: selling price to TZS 3,300' });
    expect(await price()).toBe(3000);

    const other = await connect(cashier.token);
    const stolen = await other.callTool({ name: 'confirm_action', arguments: { id: proposed.pending_action.id } });
    expect(stolen.isError).toBe(true);
    expect(await price()).toBe(3000);

    const done = await client.callTool({ name: 'confirm_action', arguments: { id: proposed.pending_action.id } });
    expect(done).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'Done: Change Sugar 1 kg: selling price to TZS 3,300.' }],
    });
    expect(await price()).toBe(3300);
    const rows = async () => (await api.t.db.db.selectFrom('product_prices').select('id').where('product_id', '=', sugar).execute()).length;
    const before = await rows();
    await client.callTool({ name: 'confirm_action', arguments: { id: proposed.pending_action.id } });
    expect(await rows()).toBe(before);
  });

  it('answers 401 to an MCP request without a token', async () => {
    const res = await fetch(`${agent.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });
});
