/**
 * The example client of examples/shop-client, as an integrator would build it: its types generated
 * from this server's live OpenAPI document with openapi-typescript, the example compiled against
 * them with tsc (a document that drifted from what the example sends or reads fails here), then
 * run over real HTTP against a listening server, every answer checked against the document.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkerFor } from '../setup/openapi-check.js';
import { createTestApp, listen, type Listening, type TestApp } from '../setup/test-app.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/shop-client');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('the example client (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  let server: Listening;
  let doc: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    doc = (await t.request('GET', '/openapi.json')).body;
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('generates its types from the live document, compiles, and runs a whole shop day', async () => {
    mkdirSync(path.join(EXAMPLE, 'src/generated'), { recursive: true });
    writeFileSync(path.join(EXAMPLE, 'src/generated/api.d.ts'), astToString(await openapiTS(doc as OpenAPI3)));
    const compiled = await promisify(execFile)(process.execPath, [tsc, '-p', path.join(EXAMPLE, 'tsconfig.json')]).then(
      () => '',
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    );
    expect(compiled).toBe('');

    const base = `${server.origin}${t.config.BASE_PATH}`;
    const check = checkerFor(doc);
    const checked: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const sent = request.method === 'GET' ? undefined : await request.clone().text();
      const res = await fetch(request);
      const text = await res.clone().text();
      const body = res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : null;
      check.check({
        method: request.method,
        path: request.url.slice(base.length),
        status: res.status,
        headers: res.headers,
        body,
        text,
        request: { body: sent },
      });
      return res;
    };
    // Imported by URL: the example's types exist only once generated, so the root typecheck must not follow it.
    const { runShopFlow } = await import(pathToFileURL(path.join(EXAMPLE, 'src/shop-flow.ts')).href);
    const result = await runShopFlow(base, { fetch: checked, phone: '0712345678' });

    expect(result).toEqual({
      store: 'Mama Asha Duka',
      stores: ['Duka Kariakoo', 'Mama Asha Duka'],
      visited: 'Duka Kariakoo',
      products: 2,
      cashSaleTotal: 11900,
      creditSaleTotal: 16500,
      paid: 10000,
      owed: 6500,
      sugarStock: 38,
      report: { rows: expect.any(Number), columns: expect.arrayContaining(['receipt_number']) },
    });
    expect(result.report.rows).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
