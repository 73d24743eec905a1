/**
 * What the OpenAPI document promises an integrator, operation by operation: a declared tag, a
 * description, an example of every request body that the schema itself accepts, the error answers
 * the route really gives (with their headers), and named schemas that are not nullable where the
 * server never sends null. Whether real answers match it is checked on every test's every request
 * (test/setup/openapi-check.ts); openapi-check.test.ts shows that check catching a drift.
 */
import { MUTATION_PAYLOADS, type MutationType } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkerFor, type OpenApiChecker } from '../setup/openapi-check.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let check: OpenApiChecker;
  const ops: Array<{ name: string; method: string; path: string; op: Json }> = [];
  const op = (method: string, path: string) => doc.paths[path][method.toLowerCase()];
  const statuses = (method: string, path: string) => Object.keys(op(method, path).responses);

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.request('GET', '/openapi.json')).body;
    check = checkerFor(doc);
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS) if (item[method]) ops.push({ name: `${method.toUpperCase()} ${path}`, method, path, op: item[method] });
    }
  });
  afterAll(() => t.close());

  it('declares its tags with descriptions, and every operation has one of them', () => {
    const declared = new Map<string, string>(doc.tags.map((tag: Json) => [tag.name, tag.description]));
    for (const [name, description] of declared) expect(description, name).toMatch(/\w{3,}.*\./);
    const used = new Set<string>();
    for (const { name, op } of ops) {
      expect(op.tags?.length, name).toBeGreaterThan(0);
      for (const tag of op.tags) {
        expect(declared.has(tag), `${name}: tag ${tag} is not declared`).toBe(true);
        used.add(tag);
      }
    }
    expect([...declared.keys()].filter((tag) => !used.has(tag))).toEqual([]);
  });

  it('describes every operation, saying who may call it', () => {
    for (const { name, op } of ops) {
      expect(op.description?.length ?? 0, name).toBeGreaterThan(30);
      expect(op.summary, name).toBeTruthy();
    }
    expect(op('POST', '/auth/login').description).toMatch(/No sign-in needed\.$/);
    expect(op('GET', '/analytics/summary').description).toMatch(/owner only\.$/);
    expect(op('GET', '/admin/organisations').description).toMatch(/Platform administrators signed in with MFA only\.$/);
  });

  it('gives every request body an example that its own schema accepts', () => {
    let bodies = 0;
    for (const { name, op } of ops) {
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        bodies++;
        expect(media.example, `${name} ${type}`).toBeDefined();
        if (type === 'application/json') expect(check.schemaProblems(media.schema, media.example), name).toEqual([]);
      }
    }
    expect(bodies).toBeGreaterThan(75);
    // A push's payloads are open objects in the document; the example's must pass the mutation's own schema.
    for (const m of op('POST', '/sync/push').requestBody.content['application/json'].example.mutations) {
      expect(MUTATION_PAYLOADS[m.type as MutationType].safeParse(m.payload).error).toBeUndefined();
    }
  });

  it('gives the main answers an example that its schema accepts', () => {
    let examples = 0;
    for (const { name, op } of ops) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const media = response.content?.['application/json'];
        if (media?.example === undefined) continue;
        examples++;
        expect(check.schemaProblems(media.schema, media.example), `${name} ${status}`).toEqual([]);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(6);
  });

  it('lists the errors each kind of route answers', () => {
    for (const { name, method, op } of ops) {
      if (name === 'GET /sync/ws') continue;
      const codes = Object.keys(op.responses);
      expect(codes, name).toContain('500');
      // Every route refuses a URL with a NUL character in it (400), whatever input it takes.
      expect(codes, name).toContain('400');
      if (method !== 'get') expect(codes, name).toContain('413');
      if (op.requestBody) expect(codes, name).toContain('415');
      if (op.parameters?.some((p: Json) => p.in === 'path')) expect(codes, name).toContain('404');
      if (op.security) expect(codes, name).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(statuses('POST', '/auth/login')).toEqual(expect.arrayContaining(['401', '423', '429']));
    for (const path of ['/auth/otp/verify', '/auth/mfa/totp/verify', '/auth/refresh', '/auth/password/reset'])
      expect(statuses('POST', path), path).toContain('401');
    expect(statuses('GET', '/meta/regions')).toEqual(['200', '400', '500', '503']);
    for (const path of ['/ai/chat', '/ai/conversations/{id}/chat'])
      expect(statuses('POST', path), path).toEqual(expect.arrayContaining(['402', '503']));
    for (const path of ['/inventory/products', '/stores', '/staff', '/accounts/users'])
      expect(statuses('POST', path), path).toContain('402');
    for (const [method, path] of [
      ['POST', '/customers'],
      ['POST', '/pos/sale'],
      ['POST', '/inventory/products/{id}/adjust'],
      ['POST', '/sync/push'],
    ])
      expect(statuses(method!, path!), path).toContain('409');
    expect(statuses('GET', '/sync/pull')).toContain('426');
    expect(op('POST', '/pos/sale').responses['422'].description).toMatch(/`CREDIT_LIMIT_EXCEEDED`.*`PRESCRIPTION_REQUIRED`/);
  });

  it('documents the headers of every answer', () => {
    const header = (response: Json, name: string) => response.headers?.[name]?.$ref;
    for (const { name, op } of ops) {
      const idempotent = op.parameters?.some((p: Json) => p.in === 'header' && p.name === 'idempotency-key');
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const at = `${name} ${status}`;
        if (status === '101') continue;
        expect(header(response, 'X-Request-Id'), at).toBe('#/components/headers/X-Request-Id');
        if (['423', '429', '503'].includes(status)) expect(header(response, 'Retry-After'), at).toBe('#/components/headers/Retry-After');
        if (op.security && status !== '401' && name !== 'GET /sync/ws') expect(header(response, 'RateLimit-Remaining'), at).toBeDefined();
        if (idempotent && status.startsWith('2')) expect(header(response, 'Idempotent-Replayed'), at).toBeDefined();
      }
    }
    expect(Object.keys(op('POST', '/credits/customers/{customer_id}/payments').responses['200'].headers)).toContain('Idempotent-Replayed');
    expect(doc.components.headers['X-Request-Id']).toMatchObject({ required: true });
    expect(doc.components.headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
  });

  it('makes no named schema nullable; null is allowed only where the server sends it', () => {
    for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) {
      expect([schema.type].flat(), name).not.toContain('null');
    }
    const profile = doc.components.schemas.Profile.properties;
    expect(profile.store).toEqual({ anyOf: [{ $ref: '#/components/schemas/Store' }, { type: 'null' }] });
    expect(profile.organisation).toEqual({ anyOf: [{ $ref: '#/components/schemas/Organisation' }, { type: 'null' }] });
    expect(profile.stores).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Store' } });
  });

  it('never writes a nullable field as allOf of a named schema and a null type, which allows no null', () => {
    // Issue 49: ReversedMobileMoneySale.payment_verification was `allOf: [PaymentVerification, string|null]`.
    const found: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Json;
      if (Array.isArray(n.allOf) && n.allOf.some((b: Json) => b.$ref) && n.allOf.some((b: Json) => [b.type].flat().includes('null')))
        found.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(found).toEqual([]);
    expect(doc.components.schemas.ReversedMobileMoneySale.properties.payment_verification.enum).toContain(null);
  });
});
