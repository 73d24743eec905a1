/**
 * Issue 35: every operation's access rule, checked by one suite generated from the OpenAPI document
 * (no list of routes to keep up to date: a new route is called here the day it is documented).
 *
 * - No token: every signed-in operation answers 401 UNAUTHENTICATED in the contract's error
 *   envelope (so does a token that is not one); every public one answers without one, never with
 *   the bearer refusal, and with 401 only where it checks a credential of its own (OWN_CREDENTIAL).
 * - Wrong role: every operation declared above a caller's role (`x-duka-access`, from defineRoute's
 *   level) answers that caller 403 FORBIDDEN, and a session still on a temporary password 403
 *   PASSWORD_CHANGE_REQUIRED. Permissions a verb asks beyond the level (`needs`) are
 *   openapi-access-text.test.ts's.
 * - Another organisation's id: every path parameter naming an organisation's row is given real
 *   rows of another organisation; the answer is 404 NOT_FOUND naming the path's resource, the same
 *   as for an id that exists nowhere. A parameter with no such row fails the suite, unless it is
 *   one of the few that name no organisation's row (NOT_TENANT below, each with its reason). A
 *   malformed id is 400 naming its parameter.
 *
 * Nothing refused writes anything: the whole database is the same after each loop. The access
 * check is route middleware (requireAccess), which @hono/zod-openapi runs before validating the
 * request, so 401 and 403 never depend on the body (a body that is not JSON gets the same answer,
 * checked below); the calls send each operation's documented example, so that a 404 comes from
 * the id and not from a body the route would refuse. The websocket upgrade is refused over a real
 * connection.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../server/src/lib/auth/middleware.js';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import { createStaff, e164, lastMessage, mfaAdminToken, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { databaseSnapshot, type TenantKind, type TenantRows, tenantRows } from '../setup/tenant-fixtures.js';
import { createTestApp, listen, type TestApp } from '../setup/test-app.js';
import { refusal, wsUrl } from '../setup/ws-client.js';

type Json = Record<string, any>;
type Answer = { status: number; body: any; text?: string };
interface Operation {
  name: string;
  method: string;
  path: string;
  op: Json;
  level: Access;
  /** Its path parameters, in order. */
  params: string[];
}

const NO_TOKEN = 'send an access token as "Authorization: Bearer <token>"';
const OWNER_ONLY = 'only the shop owner can do this';
const ADMINS_ONLY = 'only platform administrators can do this';
const MFA_ONLY = 'sign in with your authenticator code to use admin routes';
const TEMPORARY = 'you signed in with a temporary password; set a new password first (PATCH /accounts/me with password)';

type Caller = 'owner' | 'manager' | 'staff' | 'admin' | 'adminWithoutMfa';
/** Who is below each access level (middleware.ts assertAccess), and the refusal each gets. */
const BELOW = {
  public: [],
  bearer: [],
  'password-change': [],
  'signing-out': [],
  owner: [
    ['manager', OWNER_ONLY],
    ['staff', OWNER_ONLY],
    ['admin', OWNER_ONLY],
  ],
  admin: [
    ['owner', ADMINS_ONLY],
    ['manager', ADMINS_ONLY],
    ['staff', ADMINS_ONLY],
    ['adminWithoutMfa', MFA_ONLY],
  ],
  'admin-enrolment': [
    ['owner', ADMINS_ONLY],
    ['manager', ADMINS_ONLY],
    ['staff', ADMINS_ONLY],
  ],
} as const satisfies Record<Access, ReadonlyArray<readonly [Caller, string]>>;
/** Levels a session signed in with a temporary password may use (it may only set a new password, or sign out). */
const TEMPORARY_ALLOWED: Access[] = ['public', 'password-change', 'signing-out'];

/**
 * The row kind each path parameter names, by the path up to it, and the word its 404 says
 * (`<word> not found`). A new parameter fails "knows every path parameter" until it is here or
 * in NOT_TENANT.
 */
const TENANT_PARAMS: Record<string, [TenantKind, string]> = {
  '/accounts/users/{id}': ['user', 'user'],
  '/staff/{id}': ['user', 'staff member'],
  '/stores/{id}': ['store', 'store'],
  '/inventory/categories/{id}': ['category', 'category'],
  '/inventory/products/{id}': ['product', 'product'],
  '/inventory/products/barcode/{code}': ['barcode', 'product'],
  '/inventory/stock-takes/{id}': ['stockTake', 'stock take'],
  '/suppliers/purchase-orders/{id}': ['purchaseOrder', 'purchase order'],
  '/pharmacy/batches/{id}': ['batch', 'batch'],
  '/pharmacy/quarantine/{id}': ['quarantine', 'batch'],
  '/pharmacy/recalls/{id}': ['recall', 'recall'],
  '/pharmacy/prescriptions/{id}': ['prescription', 'prescription'],
  '/customers/{id}': ['customer', 'customer'],
  '/credits/customers/{customer_id}': ['customer', 'customer'],
  '/credits/{tab_id}': ['creditTab', 'credit tab'],
  '/pos/transactions/{id}': ['sale', 'transaction'],
  '/suppliers/{id}': ['supplier', 'supplier'],
  '/suppliers/deliveries/{id}': ['delivery', 'delivery'],
  '/expenses/{id}': ['expense', 'expense'],
  '/pos/shifts/{id}': ['shift', 'shift'],
  '/payments/collection-accounts/{id}': ['collectionAccount', 'collection account'],
  '/payments/callbacks/{id}': ['collectionAccount', 'collection account'],
  '/payments/requests/{id}': ['paymentRequest', 'payment request'],
  '/notifications/{id}': ['notification', 'notification'],
  '/notebook/{id}': ['note', 'note'],
  '/uploads/files/{name}': ['file', 'file'],
  '/sync/conflicts/{id}': ['conflict', 'conflict'],
  '/sync/devices/{id}': ['device', 'device'],
  '/reports/exports/{id}': ['export', 'export'],
  '/reports/scheduled/{id}': ['schedule', 'scheduled report'],
  '/ai/conversations/{id}': ['aiConversation', 'conversation'],
  '/ai/agent/conversations/{id}': ['agentConversation', 'conversation'],
  '/ai/agent/actions/{id}': ['agentAction', 'pending action'],
};

/** Path parameters that name no organisation's row, so have no "another organisation" case. */
const NOT_TENANT: Record<string, string> = {
  '/meta/regions/{slug}': 'a region of the country, the same list for everyone',
  '/sms/reports/{provider}': "an SMS provider's name (its delivery reports are authenticated by the token after it)",
  '/sms/reports/{provider}/{token}': "the secret the SMS provider was given for its delivery reports, no organisation's id",
  '/subscriptions/callbacks/{provider}': "a payment provider's name (its callbacks are authenticated by their signature)",
};
/** Levels whose callers belong to no organisation: a platform administrator reaches every organisation's rows (test/admin/). */
const NOT_TENANT_LEVELS: Partial<Record<Access, string>> = { admin: 'platform administrators work across organisations' };

/** The path up to and including the parameter: the key of TENANT_PARAMS and NOT_TENANT. */
const upTo = (path: string, param: string) => path.slice(0, path.indexOf(`{${param}}`) + param.length + 2);

describe('every operation’s access rule, from the OpenAPI document', () => {
  let t: TestApp;
  let server: ServerType;
  let realtime: RealtimeServer;
  let ws: string;
  let ops: Operation[];
  let a: Session;
  /** Rows of organisation A (the caller's own) and of organisation B (another's). */
  let mine: TenantRows;
  let theirs: TenantRows;
  const tokens = {} as Record<Caller | 'temporary', string>;

  beforeAll(async () => {
    t = await createTestApp();
    let http: string;
    ({ server, origin: http } = await listen(t));
    realtime = attachRealtime(server, t.deps, { heartbeatMs: 60_000 });
    ws = wsUrl(http);
    const doc = (await t.request('GET', '/openapi.json')).body as Json;
    ops = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'patch', 'delete']
        .filter((m) => item[m])
        .map((method) => ({
          name: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          op: item[method],
          level: item[method]['x-duka-access']?.level,
          params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        })),
    );
    const pharmacy = (name: string) => ({ shop: { name, business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' } });
    a = await registerOwner(t, pharmacy('Famasia ya Asha'));
    mine = await tenantRows(t, a);
    theirs = await tenantRows(t, await registerOwner(t, pharmacy('Famasia ya Bakari')));
    const admin = await mfaAdminToken(t);
    Object.assign(tokens, {
      owner: a.token,
      manager: (await createStaff(t, a, { role: 'manager' })).token,
      staff: (await createStaff(t, a)).token,
      admin: admin.token,
      adminWithoutMfa: admin.passwordOnly,
      temporary: await temporarySession(a),
    });
  });
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** A staff member's session signed in with the temporary password of their SMS, not yet changed. */
  async function temporarySession(owner: Session): Promise<string> {
    const phone = uniquePhone();
    const made = await t.request('POST', '/accounts/users', { token: owner.token, body: { first_name: 'Neema', phone, role: 'staff' } });
    expect(made.status, made.text).toBe(200);
    const temporary = (await lastMessage(t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    const login = await t.request('POST', '/auth/login', { body: { identifier: phone, password: temporary } });
    expect(login.body.data?.user?.password_change_required, login.text).toBe(true);
    return login.body.data.access_token;
  }

  /** A value of the parameter that names nothing anywhere (a provider's parameter: the first it accepts). */
  function unknown(o: Operation, param: string): string {
    const schema = o.op.parameters?.find((p: Json) => p.in === 'path' && p.name === param)?.schema ?? {};
    if (schema.format === 'uuid') return randomUUID();
    if (schema.enum) return schema.enum[0];
    if (TENANT_PARAMS[upTo(o.path, param)]?.[0] === 'file') return `${randomBytes(16).toString('hex')}.png`;
    return randomBytes(12).toString('hex');
  }

  /** The caller's own row for a parameter, or a value that names nothing. */
  const own = (o: Operation, param: string) => {
    const kind = TENANT_PARAMS[upTo(o.path, param)]?.[0];
    return kind ? mine[kind][0]! : unknown(o, param);
  };

  /** The operation as documented: its path with these parameters, its required query, its example body. */
  async function call(
    o: Operation,
    token: string | undefined,
    values: (param: string) => string = (p) => own(o, p),
    raw?: string,
  ): Promise<Answer> {
    const auth = token ? { authorization: `Bearer ${token}` } : undefined;
    // The websocket upgrade is no Hono route: it is refused over a real connection.
    if (o.name === 'GET /sync/ws') return refusal(ws, auth);
    const path = o.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(values(p)));
    const query = new URLSearchParams();
    for (const p of o.op.parameters ?? []) if (p.in === 'query' && p.required) query.set(p.name, p.example ?? p.schema?.example ?? 'x');
    const content = o.op.requestBody?.content ?? {};
    let form: FormData | undefined;
    if (content['multipart/form-data']) {
      form = new FormData();
      form.append('file', new File([Buffer.from('%PDF-1.4\n%%EOF\n')], 'receipt.pdf', { type: 'application/pdf' }));
    }
    return t.request(o.method, query.size ? `${path}?${query}` : path, {
      token,
      ...(raw === undefined
        ? { body: content['application/json']?.example, form }
        : { raw, headers: { 'content-type': 'application/json' } }),
    });
  }

  /** The error envelope of the contract, with this status, code and (where it is fixed) message. */
  function expectRefusal(res: Answer, at: string, status: number, code: string, message?: string) {
    expect([res.status, res.body?.errors?.[0]?.code, res.body?.message], `${at}: ${res.text ?? JSON.stringify(res.body)}`).toEqual([
      status,
      code,
      message ?? res.body?.message,
    ]);
    expect(res.body, at).toEqual({
      success: false,
      message: expect.any(String),
      data: null,
      errors: [{ code, message: res.body.message }],
      meta: expect.objectContaining({ request_id: expect.any(String) }),
    });
  }

  it('reads every operation of the document, each with a declared access level that its security says too', () => {
    expect(ops.length).toBeGreaterThan(230);
    for (const o of ops) {
      expect(Object.keys(BELOW), `${o.name} declares no known access level`).toContain(o.level);
      expect(Boolean(o.op.security?.length), `${o.name}: security and a ${o.level} level disagree`).toBe(o.level !== 'public');
    }
  });

  it('answers 401 UNAUTHENTICATED without a token, or with one that is not a token, on every signed-in operation, writing nothing', async () => {
    const secured = ops.filter((o) => o.level !== 'public');
    expect(secured.length).toBeGreaterThan(200);
    const before = await databaseSnapshot(t);
    for (const o of secured) {
      expectRefusal(await call(o, undefined), `${o.name} without a token`, 401, 'UNAUTHENTICATED', NO_TOKEN);
      expectRefusal(await call(o, 'not-a-token'), `${o.name} with a forged token`, 401, 'UNAUTHENTICATED');
      // Refused before the body is read: one that is not even JSON gets the same answer.
      if (o.op.requestBody && o.name !== 'GET /sync/ws')
        expectRefusal(await call(o, undefined, undefined, '{"not json'), `${o.name} with a broken body`, 401, 'UNAUTHENTICATED', NO_TOKEN);
    }
    expect(await databaseSnapshot(t)).toEqual(before);
  });

  /**
   * Public operations that check a credential of their own, so the example's made-up one may be
   * refused with 401 (never with the bearer refusal): what each checks.
   */
  const OWN_CREDENTIAL: Record<string, string> = {
    'POST /auth/login': 'a password',
    'POST /auth/otp/verify': 'a one-time code',
    'POST /auth/mfa/totp/verify': 'the MFA challenge of a sign-in and an authenticator code',
    'POST /auth/refresh': 'a refresh token',
    'POST /auth/password/reset': 'a reset code',
    'GET /uploads/files/{name}': "a private file: a member's access token or a signed link",
    'POST /sms/reports/{provider}/{token}': "the SMS provider's secret in the path",
    'POST /subscriptions/callbacks/{provider}': "the payment provider's signature",
  };

  it('answers every public operation without a token: never the bearer refusal, and 401 only for a credential of its own', async () => {
    const open = ops.filter((o) => o.level === 'public');
    expect(open.length).toBeGreaterThan(10);
    expect(Object.keys(OWN_CREDENTIAL).filter((name) => !open.some((o) => o.name === name))).toEqual([]);
    for (const o of open) {
      const res = await call(o, undefined);
      const at = `${o.name}: ${res.status} ${res.text}`;
      expect(res.status, at).toBeLessThan(500);
      expect(res.body?.message, at).not.toBe(NO_TOKEN);
      if (!OWN_CREDENTIAL[o.name]) expect(res.status, at).not.toBe(401);
    }
  });

  it('answers 403 to every caller below an operation’s level, and to a temporary password’s session, writing nothing', async () => {
    const before = await databaseSnapshot(t);
    let byRole = 0;
    let temporary = 0;
    for (const o of ops) {
      for (const [who, message] of BELOW[o.level]) {
        expectRefusal(await call(o, tokens[who]), `${o.name} as ${who}`, 403, 'FORBIDDEN', message);
        if (o.op.requestBody)
          expectRefusal(
            await call(o, tokens[who], undefined, '{"not json'),
            `${o.name} as ${who}, a broken body`,
            403,
            'FORBIDDEN',
            message,
          );
        byRole++;
      }
      if (TEMPORARY_ALLOWED.includes(o.level)) continue;
      expectRefusal(await call(o, tokens.temporary), `${o.name} with a temporary password`, 403, 'PASSWORD_CHANGE_REQUIRED', TEMPORARY);
      temporary++;
    }
    expect(byRole).toBeGreaterThan(250);
    expect(temporary).toBeGreaterThan(200);
    expect(await databaseSnapshot(t)).toEqual(before);
  });

  /** Each path parameter of an operation that names an organisation's row, with its kind and 404 word (none yet: undefined). */
  function tenantParams(o: Operation): Array<[string, TenantKind | undefined, string | undefined]> {
    if (NOT_TENANT_LEVELS[o.level]) return [];
    return o.params.filter((p) => !NOT_TENANT[upTo(o.path, p)]).map((p) => [p, ...(TENANT_PARAMS[upTo(o.path, p)] ?? [])] as never);
  }

  it('knows every path parameter: the row it names, or why it names none', () => {
    const missing = ops.flatMap((o) => tenantParams(o).flatMap(([p, kind]) => (kind ? [] : [`${o.name} {${p}}`])));
    expect(missing, 'path parameters with no row of another organisation to try: add them to TENANT_PARAMS').toEqual([]);
    const used = new Set(ops.flatMap((o) => o.params.map((p) => upTo(o.path, p))));
    expect(
      Object.keys({ ...TENANT_PARAMS, ...NOT_TENANT }).filter((k) => !used.has(k)),
      'entries no operation uses',
    ).toEqual([]);
  });

  it("answers 404 NOT_FOUND to another organisation's row on every operation naming one, as to an id that exists nowhere, and leaves it as it was", async () => {
    const naming = ops.filter((o) => tenantParams(o).length);
    expect(naming.length).toBeGreaterThan(70);
    const before = await databaseSnapshot(t);
    for (const o of naming) {
      for (const [param, kind, word] of tenantParams(o)) {
        // Always as A's owner, who passes every level but admin's (a file, public, with the token of a member).
        for (const id of theirs[kind!]) {
          const res = await call(o, tokens.owner, (p) => (p === param ? id : own(o, p)));
          expectRefusal(res, `${o.name} with another organisation's ${kind} ${id}`, 404, 'NOT_FOUND', `${word} not found`);
          const nowhere = await call(o, tokens.owner, (p) => (p === param ? unknown(o, p) : own(o, p)));
          expect({ ...nowhere.body, meta: null }, `${o.name}: unlike an unknown ${param}`).toEqual({ ...res.body, meta: null });
        }
      }
    }
    expect(await databaseSnapshot(t)).toEqual(before);
  });

  it('answers 400 VALIDATION_ERROR naming the parameter to an id that is not one, on every operation taking one', async () => {
    /** A caller each level lets through. */
    const allowed: Record<Access, Caller | undefined> = {
      public: undefined,
      bearer: 'owner',
      'password-change': 'owner',
      'signing-out': 'owner',
      owner: 'owner',
      admin: 'admin',
      'admin-enrolment': 'admin',
    };
    const ids = ops.flatMap((o) =>
      o.params
        .filter((p) => o.op.parameters.find((q: Json) => q.in === 'path' && q.name === p).schema.format === 'uuid')
        .map((p) => [o, p] as const),
    );
    expect(ids.length).toBeGreaterThan(90);
    const before = await databaseSnapshot(t);
    for (const [o, param] of ids) {
      const who = allowed[o.level];
      const res = await call(o, who && tokens[who], (p) => (p === param ? 'not-a-uuid' : own(o, p)));
      expect([res.status, res.body?.success, res.body?.errors], `${o.name} with {${param}} not-a-uuid: ${res.text}`).toEqual([
        400,
        false,
        [{ code: 'VALIDATION_ERROR', field: param, message: 'must be a valid UUID' }],
      ]);
    }
    expect(await databaseSnapshot(t)).toEqual(before);
  });
});
