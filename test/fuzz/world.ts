/**
 * What the fuzzer aims at: an organisation with an owner, a cashier, two stores, products,
 * customers, suppliers, a delivery, a sale on credit, an expense, a note and a registered till,
 * its first store fiscalising (a registered TRA device, so every sale there is numbered for TRA);
 * a second organisation whose ids are the "other tenant's"; and a platform admin signed in with
 * MFA. Ids are kept by the word their paths use (`products`, `customers`…), so a path's `{id}` is
 * usually one of the right kind, sometimes another tenant's, sometimes nonsense.
 */
import { newId } from '@duka/shared';
import { addStore, createStaff, mfaAdminToken, registerOwner, type Session } from '../setup/factories.js';
import { fiscaliseStore } from '../setup/fiscal-device.js';
import type { TestApp } from '../setup/test-app.js';

export type TokenKind = 'owner' | 'staff' | 'admin' | 'other' | 'victim' | 'none' | 'garbage';

export interface World {
  tokens: Record<TokenKind, string | undefined>;
  owner: Session;
  /** Own ids by the path word naming them (`products`, `customers`, `transactions`…). */
  ids: Map<string, string[]>;
  /** The other organisation's ids, same keys. */
  otherIds: Map<string, string[]>;
  /** Every own id, for a path word with no kind of its own. */
  allIds: string[];
  allOtherIds: string[];
  /** A till of the owner's store and the next seq it expects (as far as the fuzzer knows). */
  device: { id: string; nextSeq: number };
  /** An account the auth routes are aimed at (signing out, wrong passwords), so the owner's session lasts. */
  victim: { phone: string; email: string; password: string };
}

async function populate(t: TestApp, s: Session): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  const add = (kind: string, id: unknown) => {
    if (typeof id === 'string') ids.set(kind, [...(ids.get(kind) ?? []), id]);
  };
  const post = async (path: string, body: unknown) => {
    const res = await t.request('POST', path, { token: s.token, body });
    if (res.status >= 300) throw new Error(`fuzz world: POST ${path} answered ${res.status}: ${res.text}`);
    return res.body.data;
  };
  add('stores', s.storeId);
  add('organisations', s.orgId);
  add('users', s.userId);
  const category = await post('/inventory/categories', { name: 'Drinks' });
  add('categories', category.id);
  const products: string[] = [];
  for (const [name, price] of [
    ['Soda 500ml', 1000],
    ['Sugar 1kg', 3200.5],
    ['Rice 5kg', 15000],
  ] as const) {
    const p = await post('/inventory/products', {
      name,
      selling_price: price,
      buying_price: price / 2,
      stock: 50,
      category_id: category.id,
    });
    products.push(p.id);
    add('products', p.id);
  }
  const customer = await post('/customers', {
    name: 'Neema Joseph',
    phone: `07${String(Math.floor(Math.random() * 1e8))
      .padStart(8, '0')
      .slice(0, 8)}`,
    credit_limit: 500000,
  });
  add('customers', customer.id);
  add('customers', (await post('/customers', { name: 'Baraka' })).id);
  const supplier = await post('/suppliers', { name: 'Bakhresa Wholesale' });
  add('suppliers', supplier.id);
  const delivery = await t.request('POST', `/suppliers/${supplier.id}/deliveries`, {
    token: s.token,
    body: { lines: [{ product_id: products[0], qty: 10, unit_cost: 500 }], paid_amount: 0 },
  });
  if (delivery.status < 300) add('deliveries', delivery.body.data.id);
  const sale = await post('/pos/sale', {
    lines: [
      { product_id: products[0], qty: 2 },
      { product_id: products[1], qty: 1 },
    ],
    payment_method: 'Credit',
    customer_id: customer.id,
  });
  add('transactions', sale.id ?? sale.transaction?.id);
  const cash = await post('/pos/sale', { lines: [{ product_id: products[2], qty: 1 }], payment_method: 'Cash' });
  add('transactions', cash.id ?? cash.transaction?.id);
  add('expenses', (await post('/expenses', { title: 'Rent', category: 'Rent', amount: 250000 })).id);
  const note = await t.request('POST', '/notebook', { token: s.token, body: { title: 'Orders', content: 'Call Bakhresa' } });
  if (note.status < 300) add('notebook', note.body.data.id);
  return ids;
}

export async function buildWorld(t: TestApp): Promise<World> {
  const owner = await registerOwner(t);
  const other = await registerOwner(t);
  const victim = await registerOwner(t);
  const staff = await createStaff(t, owner);
  const admin = await mfaAdminToken(t);
  const second = await addStore(t, owner.orgId, 'Kariakoo Branch');
  const ids = await populate(t, owner);
  await fiscaliseStore(t, owner);
  ids.set('stores', [...(ids.get('stores') ?? []), second.id]);
  ids.set('users', [...(ids.get('users') ?? []), staff.user.id]);
  const otherIds = await populate(t, other);
  const device = newId();
  await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: device, name: 'Till 1' } });
  ids.set('devices', [device]);
  const flat = (m: Map<string, string[]>) => [...m.values()].flat();
  return {
    tokens: {
      owner: owner.token,
      staff: staff.token,
      admin: admin.token,
      other: other.token,
      victim: victim.token,
      none: undefined,
      garbage: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bm9wZQ',
    },
    owner,
    ids,
    otherIds,
    allIds: flat(ids),
    allOtherIds: flat(otherIds),
    device: { id: device, nextSeq: 1 },
    victim: { phone: victim.phone, email: victim.email, password: victim.password },
  };
}
