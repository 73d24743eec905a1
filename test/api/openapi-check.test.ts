/**
 * The check every test's request goes through (test/setup/openapi-check.ts) catches a document
 * that drifted from the server: a field it no longer names, a status it does not list, a header it
 * promises, a field the server sends that it does not describe. Each case here drifts the
 * document on purpose and sends a real request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Json = Record<string, any>;

describe('the OpenAPI check of every answer', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  async function drifted(change: (doc: Json) => void) {
    t = await createTestApp({ checkAgainst: (doc) => (change(doc), doc) });
    return { token: (await registerOwner(t)).token };
  }

  it('fails the request whose answer has a field the schema no longer allows, naming operation, status and field', async () => {
    const { token } = await drifted((doc) => {
      const category = doc.components.schemas.Category;
      delete category.properties.product_count;
      category.required = category.required.filter((name: string) => name !== 'product_count');
    });
    const answer = t!.request('POST', '/inventory/categories', { token, body: { name: 'Vinywaji' } });
    await expect(answer).rejects.toThrow(
      /^createCategory \(POST \/inventory\/categories\) answered 200.*\n.*body\.data must NOT have unevaluated properties \(product_count\)/,
    );
  });

  it('fails a status the operation does not document, with the request to replay it', async () => {
    const { token } = await drifted((doc) => void delete doc.paths['/inventory/categories/{id}'].patch.responses['404']);
    const missing = '0b8f5f2e-2d9c-4f6e-a1c3-5e7d9b0a1c2d';
    const err: Error = await t!.request('PATCH', `/inventory/categories/${missing}`, { token, body: { name: 'Sukari' } }).then(
      () => new Error('no drift found'),
      (e: Error) => e,
    );
    expect(err.name).toBe('OpenApiDrift');
    expect(err.message).toContain('updateCategory (PATCH /inventory/categories/{id}) answered 404');
    expect(err.message).toContain('status 404 is not documented');
    expect(err.message).toContain(`"path":"/inventory/categories/${missing}"`);
    expect(err.message).toContain('"body":{"name":"Sukari"}');
    expect(err.message).toContain('"authorization":"Bearer <token>"');
    expect(err.message).not.toContain(token);
  });

  it('fails an answer that lacks a header the document says is always sent', async () => {
    const { token } = await drifted((doc) => {
      doc.components.headers['X-Always'] = { required: true, schema: { type: 'string' } };
      doc.paths['/inventory/categories'].get.responses['200'].headers['X-Always'] = { $ref: '#/components/headers/X-Always' };
    });
    await expect(t!.request('GET', '/inventory/categories', { token })).rejects.toThrow(/required header X-Always is missing/);
  });

  it('fails a body whose value breaks its documented type', async () => {
    const { token } = await drifted((doc) => void (doc.components.schemas.Category.properties.sort_order = { type: 'string' }));
    await expect(t!.request('POST', '/inventory/categories', { token, body: { name: 'Vinywaji' } })).rejects.toThrow(
      /body\.data\.sort_order must be string/,
    );
  });

  it('passes the same answers against the document as served', async () => {
    t = await createTestApp();
    const owner = await registerOwner(t);
    const created = await t.request('POST', '/inventory/categories', { token: owner.token, body: { name: 'Vinywaji' } });
    expect(created.status).toBe(200);
    expect((await t.request('GET', '/inventory/categories', { token: owner.token })).body.data).toHaveLength(1);
    expect(
      (await t.request('PATCH', `/inventory/categories/${otherId(created.body.data.id)}`, { token: owner.token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
  });
});

/** The same id with its last digit changed: an id of the same shape that names nothing. */
const otherId = (id: string) => id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
