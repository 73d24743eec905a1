/**
 * Issue 33 item 3: who may call an operation is said once, by the sentence generated from the
 * route's declared access (server/src/lib/route-access.ts, read back from `x-duka-access`), and
 * the declaration is what the server does: a staff member without a declared permission is
 * refused with 403 naming it, one holding just that permission is not, and no signed-in route
 * refuses a permission (or a role) it does not declare.
 */
import { randomUUID } from 'node:crypto';
import { Permission, PERMISSION_FLAG, PERMISSION_REFUSAL, POWERS, type Power } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessSentence, type Needs } from '../../server/src/lib/route-access.js';
import type { Access } from '../../server/src/lib/auth/middleware.js';
import { createStaff, insertCreditSale, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { newProduct, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Json = Record<string, any>;
type Op = { name: string; method: string; path: string; op: Json; access: Json };

/** Words that say who may call: only the generated sentence may say them. */
const ACCESS_WORDS = [
  /any signed-in user/i,
  /signed-in users/i,
  /no sign-in needed/i,
  /\bowner(’s|'s)? only\b/i,
  /\bonly (the )?owners?\b/i,
  /\(owner\b/i,
  /platform administrators (signed in|only|, before)/i,
  /\bpermission `\w+`/i,
  /\b(needs?|with|holding|without) (the )?`?\w+`? permission\b/i,
  /\(`?\w+`? permission\)/i,
  /\bcan_(refund|discount|view_reports|manage_\w+)\b/,
];

/**
 * What the outside review found documented as "Any signed-in user." though the verb asks for a
 * permission (21 operations), and the other verbs that always ask for one.
 */
const ALWAYS: Record<string, Permission> = {
  'PATCH /pharmacy/batches/{id}': 'pharmacy',
  'GET /pharmacy/expiring': 'pharmacy',
  'GET /pharmacy/prescriptions': 'pharmacy',
  'GET /pharmacy/prescriptions.csv': 'pharmacy',
  'GET /pharmacy/prescriptions/{id}': 'pharmacy',
  'POST /pharmacy/prescriptions/{id}/corrections': 'pharmacy',
  'GET /pharmacy/quarantine': 'pharmacy',
  'POST /pharmacy/quarantine/{id}/release': 'pharmacy',
  'POST /pharmacy/batches/{id}/dispose': 'pharmacy',
  'POST /pharmacy/recalls': 'pharmacy',
  'GET /pharmacy/recalls': 'pharmacy',
  'GET /pharmacy/recalls/{id}': 'pharmacy',
  'GET /pharmacy/registers/controlled': 'pharmacy',
  'GET /pharmacy/registers/controlled.csv': 'pharmacy',
  'GET /pharmacy/registers/disposals': 'pharmacy',
  'GET /pharmacy/registers/disposals.csv': 'pharmacy',
  'POST /pos/exchanges': 'refund',
  'POST /pos/returns': 'refund',
  'POST /pos/transactions/{id}/refund': 'refund',
  'POST /reports/generate': 'reports',
  'GET /payments/received': 'reports',
  'GET /payments/received.csv': 'reports',
  'GET /payments/reconciliation': 'reports',
  'GET /payments/reconciliation.csv': 'reports',
  'GET /reports/exports': 'reports',
  'GET /reports/exports/{id}/download': 'reports',
  'POST /credits/{tab_id}/write-off': 'credit',
  'POST /inventory/products/{id}/adjust': 'stock',
  'DELETE /inventory/products/{id}': 'stock',
  'POST /inventory/products/import': 'stock',
  'POST /inventory/stock-takes': 'stock',
  'GET /inventory/stock-takes': 'stock',
  'GET /inventory/stock-takes/{id}': 'stock',
  'GET /inventory/stock-takes/{id}/export.csv': 'stock',
  'POST /inventory/stock-takes/{id}/counts': 'stock',
  'POST /inventory/transfers': 'stock',
  'POST /inventory/stock-takes/{id}/apply': 'stock',
  'POST /inventory/stock-takes/{id}/cancel': 'stock',
  'POST /suppliers/purchase-orders': 'suppliers',
  'GET /suppliers/purchase-orders': 'suppliers',
  'GET /suppliers/purchase-orders/{id}': 'suppliers',
  'POST /suppliers/purchase-orders/{id}/send': 'suppliers',
  'POST /suppliers/purchase-orders/{id}/receive': 'suppliers',
  'POST /suppliers/purchase-orders/{id}/cancel': 'suppliers',
  'POST /suppliers/purchase-orders/from-suggestions': 'suppliers',
  'DELETE /suppliers/{id}': 'suppliers',
};
/** Verbs that ask for a permission only of some calls (a discount, a price, a paid delivery, another cashier's void). */
const SOMETIMES: Record<string, Permission> = {
  'POST /pos/sale': 'discount',
  'POST /payments/requests': 'discount',
  'POST /payments/requests/{id}/retry': 'discount',
  'POST /pos/transactions/{id}/void': 'refund',
  'POST /inventory/products': 'stock',
  'PATCH /inventory/products/{id}': 'stock',
  'POST /customers': 'credit',
  'PATCH /customers/{id}': 'credit',
  'POST /suppliers/deliveries': 'suppliers',
  'POST /suppliers/{id}/deliveries': 'suppliers',
  'PATCH /suppliers/deliveries/{id}': 'suppliers',
};
/** 403s of a signed-in route that are about where, not who: another store than the caller's own. */
const SCOPE_REFUSALS = ['you can only post notifications to your active store', 'you can only work in the store you are assigned to'];

const needsOf = ({ level: _, ...needs }: Json) => (Object.keys(needs).length ? (needs as Needs) : undefined);
/** Every permission the declaration names, always or for some calls. */
const declared = (access: Json): Permission[] =>
  access.permission ? [access.permission] : (access.powers ?? []).map((p: Power) => POWERS[p]);
const unconditional = (access: Json): Permission | undefined => (access.permission && !access.when ? access.permission : undefined);

/** The permission a 403 names (its meta, its refusal words or "needs the … permission"), `role` for any other 403. */
function refusedFor(res: { status: number; body: Json }): Permission | 'role' | undefined {
  if (res.status !== 403 || res.body?.errors?.[0]?.code !== 'FORBIDDEN') return undefined;
  const message: string = res.body.message;
  if (res.body.meta?.permission) return res.body.meta.permission;
  return Permission.options.find((p) => message === PERMISSION_REFUSAL[p] || message.includes(`the ${p} permission`)) ?? 'role';
}

describe('who may call each operation, as its description says', () => {
  let t: TestApp;
  let ops: Op[];
  let owner: Session;
  /** Ids of real rows, for verbs that look a row up before they check the permission. */
  let ids: Array<[RegExp, string]>;
  const op = (name: string) => ops.find((o) => o.name === name)!;

  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.request('GET', '/openapi.json')).body;
    ops = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'patch', 'delete']
        .filter((m) => item[m])
        .map((method) => ({
          name: `${method.toUpperCase()} ${path}`,
          method,
          path,
          op: item[method],
          access: item[method]['x-duka-access'],
        })),
    );
    owner = await registerOwner(t, {
      shop: { name: 'Dawa Bora', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    const product = await newProduct(t, owner, { name: 'Panadol 500mg', selling_price: 500, stock: 40 });
    const supplier = await newSupplier(t, owner);
    const customer = (await t.request('POST', '/customers', { token: owner.token, body: { name: 'Halima Omari', phone: uniquePhone() } }))
      .body.data;
    const { tabId } = await insertCreditSale(t, { orgId: owner.orgId, storeId: owner.storeId, customerId: customer.id, total: 12_000 });
    ids = [
      [/^\/inventory\/products\/\{id\}/, product.id],
      [/^\/suppliers\/\{id\}/, supplier.id],
      [/^\/credits\/\{tab_id\}/, tabId],
      [/^\/credits\/customers\/\{customer_id\}/, customer.id],
      [/^\/customers\/\{id\}/, customer.id],
      [/product_id/, product.id],
    ];
  });
  afterAll(() => t.close());

  /** The operation called as documented: real ids where the fixtures have one, its example body, its required query. */
  function call(o: Op, token: string) {
    const id = (at: string) => ids.find(([re]) => re.test(at))?.[1] ?? randomUUID();
    const path = o.path.replace(/\{(\w+)\}/g, () => id(o.path));
    const query = new URLSearchParams();
    for (const p of o.op.parameters ?? [])
      if (p.in === 'query' && p.required) query.set(p.name, p.schema?.format === 'uuid' ? id(p.name) : 'x');
    const body = o.op.requestBody?.content?.['application/json']?.example;
    return t.request(o.method.toUpperCase(), query.size ? `${path}?${query}` : path, { token, body });
  }

  it('ends every description with the sentence of its declared access, and says access nowhere else', () => {
    for (const o of ops) {
      expect(o.access?.level, `${o.name} declares no access`).toBeDefined();
      const sentence = accessSentence(o.access.level as Access, needsOf(o.access));
      expect(o.op.description, o.name).toMatch(new RegExp(` ${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      const own = `${o.op.description.slice(0, -sentence.length)} | ${o.op.summary}`;
      for (const words of ACCESS_WORDS) expect(own, `${o.name}: its own text says who may call it (${words})`).not.toMatch(words);
    }
  });

  it('says a permission where the verb asks for one, and only that one', () => {
    for (const [name, permission] of Object.entries({ ...ALWAYS, ...SOMETIMES })) {
      const { description } = op(name).op;
      expect(description, name).not.toMatch(/Any signed-in user\.$/);
      expect(description, name).toContain(`the ${permission} permission (\`${PERMISSION_FLAG[permission]}\``);
      for (const other of Permission.options.filter((p) => p !== permission))
        expect(description, name).not.toContain(`the ${other} permission`);
    }
    for (const [name, permission] of Object.entries(ALWAYS))
      expect(op(name).op.description, name).toMatch(new RegExp(`Signed-in users with the ${permission} permission`));
    for (const name of Object.keys(SOMETIMES)) expect(op(name).op.description, name).toMatch(/Any signed-in user; .* needs the/);
    const declaring = ops.filter((o) => declared(o.access ?? {}).length).map((o) => o.name);
    expect(declaring.sort()).toEqual(Object.keys({ ...ALWAYS, ...SOMETIMES }).sort());
    expect(op('POST /pos/transactions/{id}/void').op.description).toMatch(
      /voiding another cashier’s sale or one older than 10 minutes needs the refund permission .* or the owner’s or a manager’s role\.$/,
    );
  });

  it('refuses a staff member without a declared permission (403 naming it), and not one who holds it', async () => {
    const cashier = await createStaff(t, owner);
    const always = ops.filter((o) => o.access && unconditional(o.access));
    expect(always.map((o) => o.name).sort()).toEqual(Object.keys(ALWAYS).sort());
    const holders = new Map<Permission, string>();
    for (const p of Permission.options) holders.set(p, (await createStaff(t, owner, { [PERMISSION_FLAG[p]]: true })).token);
    for (const o of always) {
      const permission = unconditional(o.access)!;
      const refused = await call(o, cashier.token);
      expect(refusedFor(refused), `${o.name} without ${permission}: ${refused.status} ${refused.text}`).toBe(permission);
      const allowed = await call(o, holders.get(permission)!);
      expect(allowed.status, `${o.name} with ${permission}: ${allowed.text}`).not.toBe(403);
    }
  });

  it('refuses no signed-in caller a permission or role its operation does not declare', async () => {
    const cashier = await createStaff(t, owner);
    const open = ops.filter((o) => o.access?.level === 'bearer' && !unconditional(o.access));
    expect(open.length).toBeGreaterThan(80);
    for (const o of open) {
      const res = await call(o, cashier.token);
      const refused = refusedFor(res);
      if (!refused || SCOPE_REFUSALS.includes(res.body.message)) continue;
      expect(declared(o.access), `${o.name} refused ${refused} undeclared: ${res.text}`).toContain(refused);
    }
  });
});
