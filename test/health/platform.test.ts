import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('health probes', () => {
  it('answer at the server root as plain JSON, whatever the base path', async () => {
    const t = await createTestApp({ config: { BASE_PATH: '/pos/v1' } });
    try {
      const live = await t.request('GET', '/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      const ready = await t.request('GET', '/health/ready');
      expect(ready.body).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
      expect((await t.request('GET', '/meta/outlet-types')).status).toBe(200);
      expect((await t.app.request('/api/v1/meta/outlet-types')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('report 503 when the database does not answer', async () => {
    const t = await createTestApp({ ping: () => Promise.reject(new Error('connection refused')) });
    try {
      const ready = await t.request('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', database: 'unreachable' });
      expect((await t.request('GET', '/health/live')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('API reference', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const ROUTES = [
    'post /auth/register',
    'post /auth/otp/send',
    'post /auth/otp/verify',
    'post /auth/login',
    'post /auth/mfa/totp/verify',
    'post /auth/refresh',
    'get /auth/confirm-email',
    'post /auth/password/forgot',
    'post /auth/password/reset',
    'post /auth/logout',
    'post /auth/resend-confirmation',
    'get /accounts/me',
    'patch /accounts/me',
    'get /accounts/organisation',
    'patch /accounts/organisation',
    'post /accounts/switch-store',
    'get /accounts/users',
    'post /accounts/users',
    'delete /accounts/users/{id}',
    'get /accounts/ai-credits',
    'get /accounts/mfa/totp/status',
    'post /accounts/mfa/totp/setup',
    'post /accounts/mfa/totp/verify',
    'post /accounts/mfa/totp/disable',
    'get /meta/business-types',
    'get /meta/regions',
    'get /meta/regions/{slug}/districts',
    'get /meta/outlet-types',
    'get /inventory/products',
    'post /pos/sale',
    'get /customers',
    'post /credits/customers/{customer_id}/payments',
    'get /notifications',
    'get /stores',
    'get /staff',
    'post /sync/devices',
    'post /sync/push',
    'get /sync/pull',
    'get /sync/bootstrap',
    'get /sync/ping',
    'get /sync/conflicts',
    'get /sync/ws',
    'get /suppliers',
    'post /suppliers',
    'get /suppliers/stats',
    'get /suppliers/{id}',
    'patch /suppliers/{id}',
    'delete /suppliers/{id}',
    'get /suppliers/deliveries',
    'post /suppliers/deliveries',
    'get /suppliers/deliveries/{id}',
    'patch /suppliers/deliveries/{id}',
    'delete /suppliers/deliveries/{id}',
    'post /suppliers/deliveries/{id}/pay',
    'get /suppliers/payments',
    'get /suppliers/{id}/payments',
    'post /suppliers/{id}/pay',
    'get /suppliers/{id}/deliveries',
    'post /suppliers/{id}/deliveries',
    'get /expenses',
    'post /expenses',
    'get /expenses/summary',
    'get /expenses/{id}',
    'patch /expenses/{id}',
    'delete /expenses/{id}',
    'get /notebook',
    'post /notebook',
    'get /notebook/{id}',
    'patch /notebook/{id}',
    'delete /notebook/{id}',
    'post /uploads',
    'delete /uploads',
    'get /reviews/public',
    'post /reviews',
    'get /reports/types',
    'post /reports/generate',
    'get /reports/exports',
    'get /reports/exports/{id}/download',
    'get /reports/scheduled',
    'post /reports/scheduled',
    'patch /reports/scheduled/{id}',
    'delete /reports/scheduled/{id}',
    'post /reports/scheduled/{id}/send',
    'get /analytics/overview',
    'get /analytics/summary',
    'get /analytics/trend',
    'get /analytics/payment-mix',
    'get /analytics/top-products',
    'get /analytics/sales',
    'get /analytics/customers',
    'get /analytics/cashflow',
    'get /analytics/dashboard',
    'get /analytics/products',
    'get /admin/dashboard',
    'get /admin/organisations',
    'get /admin/organisations/{id}',
    'get /admin/organisations/{id}/stores',
    'get /admin/organisations/{id}/users',
    'patch /admin/organisations/{id}',
    'get /admin/users',
    'patch /admin/users/{id}',
    'get /admin/stores',
    'patch /admin/stores/{id}',
    'get /admin/products',
    'get /admin/products/{id}',
    'patch /admin/products/{id}',
    'get /admin/categories',
    'post /admin/categories',
    'patch /admin/categories/{id}',
    'delete /admin/categories/{id}',
    'get /admin/transactions',
    'get /admin/transactions/{id}',
    'get /admin/transactions/summary',
    'get /admin/customers',
    'get /admin/credits',
    'get /admin/suppliers',
    'get /admin/suppliers/{id}/deliveries',
    'get /admin/suppliers/{id}/payments',
    'get /admin/expenses',
    'get /admin/reviews',
    'patch /admin/reviews/{id}',
    'delete /admin/reviews/{id}',
    'get /admin/notes',
    'get /admin/notifications',
    'get /admin/ai/usage',
    'get /admin/subscriptions',
    'get /admin/analytics/overview',
    'get /admin/monitoring/overview',
    'get /admin/monitoring/activity',
    'get /admin/monitoring/health',
    'post /ai/chat',
    'post /ai/conversations/{id}/chat',
    'get /ai/conversations',
    'get /ai/conversations/{id}',
    'patch /ai/conversations/{id}',
    'get /ai/suggestions',
    'get /ai/usage',
  ];

  it('serves an OpenAPI 3.1 document with every route, its auth and the error envelope', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `http://localhost:${t.config.PORT}/api/v1` }]);
    // What generated clients need to type values: timestamps as date-time, money in cents.
    expect(doc.components.schemas.Transaction.properties.created_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(doc.components.schemas.Transaction.properties.total).toMatchObject({ type: 'number', multipleOf: 0.01 });
    expect(doc.components.schemas.CreateSaleInput.properties.discount_pct).toMatchObject({ maximum: 100, multipleOf: 0.01 });
    // One way of paying, or `payments` (issue 51: split tender); described where it is used.
    expect(doc.components.schemas.CreateSaleInput.properties.payment_method).toMatchObject({
      enum: ['Cash', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Credit'],
      description: expect.stringContaining('or give payments'),
    });
    expect(doc.components.schemas.CreateSaleInput.properties.payments).toBeDefined();
    expect(doc.components.schemas.PaymentMethod.enum).toEqual(['Cash', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Credit']);
    // What the server really sends: a reset code's check answers data null; a JSON report names its export and has no attachment header.
    expect(doc.paths['/auth/otp/verify'].post.responses['200'].content['application/json'].schema.properties.data).toEqual({
      anyOf: [{ $ref: '#/components/schemas/TokenPair' }, { type: 'null' }],
    });
    expect(doc.paths['/reports/generate'].post.responses['200'].headers['Content-Disposition'].required).toBeUndefined();
    expect(Object.keys(doc.components.schemas.ReportResult.properties)).toEqual(expect.arrayContaining(['export_id', 'file_url']));
    expect(doc.components.schemas.ReportResult.properties.export).toBeUndefined();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
    expect(doc.paths['/accounts/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/auth/login'].post.security).toBeUndefined();
    expect(doc.paths['/auth/login'].post.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    expect(doc.components.schemas.Profile).toBeDefined();
  });

  it('serves the interactive reference page with its assets from this server', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    // A Content-Security-Policy the page itself keeps: no inline script, nothing from elsewhere.
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/api/v1/docs/assets/swagger-ui-bundle.js');
    const js = await t.app.request('/api/v1/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    const init = await t.request('GET', '/docs/init.js');
    expect(init.text).toContain('"/api/v1/openapi.json"');
    expect((await t.request('GET', '/docs/assets/package.json')).status).toBe(404);
  });
});

describe('HTTP behaviour', () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await createTestApp({
        config: { CORS_ORIGINS: ['https://shop.duka.test'], BODY_LIMIT_BYTES: 4096, RATE_LIMIT_USER_PER_MIN: 5 },
      })),
  );
  afterAll(() => t.close());

  it('sets secure headers and a request id that errors quote', async () => {
    const res = await t.request('GET', '/accounts/me', { headers: { 'x-request-id': 'till-7-req-42' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBe('till-7-req-42');
    expect(res.body).toEqual({
      success: false,
      message: 'send an access token as "Authorization: Bearer <token>"',
      data: null,
      errors: [{ code: 'UNAUTHENTICATED', message: 'send an access token as "Authorization: Bearer <token>"' }],
      meta: { request_id: 'till-7-req-42' },
    });
  });

  it('allows only the configured browser origins', async () => {
    const allowed = await t.request('OPTIONS', '/auth/login', {
      headers: { origin: 'https://shop.duka.test', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.duka.test');
    const other = await t.request('OPTIONS', '/auth/login', {
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("lets a till on another allowed origin send its sync protocol and read the server's and a page's next token", async () => {
    const preflight = await t.request('OPTIONS', '/sync/bootstrap', {
      headers: {
        origin: 'https://shop.duka.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, duka-sync-protocol',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toContain('duka-sync-protocol');
    const owner = await registerOwner(t);
    const page = await t.request('GET', '/sync/bootstrap?limit=1', { token: owner.token, headers: { origin: 'https://shop.duka.test' } });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('access-control-expose-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['duka-sync-protocol', 'duka-next-page-token']),
    );
    expect(page.headers.get('duka-next-page-token')).toBe(page.body.data.page_token);
  });

  it('refuses a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.request('POST', '/auth/login', { body: { identifier: 'x'.repeat(5000), password: 'secret123' } });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('limits each user to the configured requests a minute (429 with Retry-After)', async () => {
    const owner = await registerOwner(t);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await t.request('GET', '/accounts/me', { token: owner.token }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    // Every answer says where the caller stands, so a client can pace itself before it is refused.
    expect(answers.map((r) => [r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')])).toEqual([
      ['5', '4'],
      ['5', '3'],
      ['5', '2'],
      ['5', '1'],
      ['5', '0'],
      ['5', '0'],
    ]);
    expect(Number(answers[0]!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const limited = await t.request('GET', '/accounts/me', { token: owner.token });
    expect(limited.body.errors[0].code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers an unknown route with the 404 envelope', async () => {
    const res = await t.request('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, errors: [{ code: 'NOT_FOUND' }] });
  });

  it('answers a known path asked with another method with 405 and the methods it takes', async () => {
    const sale = await t.request('GET', '/pos/sale');
    expect(sale.status).toBe(405);
    expect(sale.headers.get('allow')).toBe('POST');
    expect(sale.body).toMatchObject({
      success: false,
      errors: [{ code: 'METHOD_NOT_ALLOWED', message: '/api/v1/pos/sale does not take GET; it takes POST' }],
    });
    const product = await t.request('PUT', '/inventory/products/01a20c10-2fa7-7591-85cb-a652abc17cad');
    expect(product.status).toBe(405);
    expect(product.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
    expect((await t.request('DELETE', '/no/such/route')).status).toBe(404);
  });
});

describe('unexpected failures', () => {
  it('answer 500 INTERNAL with the request id and nothing internal', async () => {
    const t = await createTestApp();
    const owner = await registerOwner(t);
    await t.db.close();
    const res = await t.request('GET', '/accounts/me', { token: owner.token, headers: { 'x-request-id': 'req-500' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      success: false,
      message: 'internal error; quote the request id when reporting it',
      data: null,
      errors: [{ code: 'INTERNAL', message: 'internal error; quote the request id when reporting it' }],
      meta: { request_id: 'req-500' },
    });
    expect(res.text).not.toMatch(/at .*\.ts|sqlite|pool|stack/i);
    await t.db.drop().catch(() => {});
  });
});
