/** A shop that takes mobile money by push at checkout, and the calls its till makes, all through the API. */
import { randomUUID } from 'node:crypto';
import { CollectionAccount, Envelope, PaymentRequest } from '@duka/shared';
import { expect } from 'vitest';
import { createStaff, registerOwner, type Session } from './factories.js';
import { newProduct, productOf } from './suppliers-factories.js';
import type { ApiResponse, TestApp } from './test-app.js';

export interface PushShop {
  owner: Session;
  /** A staff member of the owner's store: the one who sells. */
  cashier: Awaited<ReturnType<typeof createStaff>>;
  account: CollectionAccount;
  /** 3,200 TZS, 10 in stock. */
  sugar: { id: string; name: string };
  /** 6,100 TZS, 5 in stock. */
  oil: { id: string; name: string };
}

export async function pushShop(t: TestApp, credentials: Record<string, unknown>, provider: 'selcom' | 'azampay'): Promise<PushShop> {
  const owner = await registerOwner(t);
  const cashier = await createStaff(t, owner);
  const res = await t.request('POST', '/payments/collection-accounts', {
    token: owner.token,
    body: { provider, label: `${provider} till`, credentials },
  });
  expect(res.status, res.text).toBe(201);
  const account = Envelope(CollectionAccount).parse(res.body).data;
  const sugar = await newProduct(t, owner, { name: 'Sukari 1kg', selling_price: 3200, stock: 10 });
  const oil = await newProduct(t, owner, { name: 'Mafuta 1L', selling_price: 6100, stock: 5 });
  return { owner, cashier, account, sugar, oil };
}

/** Three sugar and one oil, 15,700 TZS, paid by M-Pesa from 0754 123 456. */
export function checkout(shop: PushShop, extra: { sale?: Record<string, unknown>; phone?: string; network?: string } = {}) {
  return {
    sale: {
      id: randomUUID(),
      lines: [
        { product_id: shop.sugar.id, qty: 3 },
        { product_id: shop.oil.id, qty: 1 },
      ],
      payment_method: 'M-Pesa',
      ...extra.sale,
    },
    phone: extra.phone ?? '0754 123 456',
    ...(extra.network ? { network: extra.network } : {}),
  };
}

export const asked = (res: ApiResponse): PaymentRequest => Envelope(PaymentRequest).parse(res.body).data;

export async function ask(t: TestApp, who: { token: string }, body: unknown, status = 201): Promise<PaymentRequest> {
  const res = await t.request('POST', '/payments/requests', { token: who.token, body });
  expect(res.status, res.text).toBe(status);
  return asked(res);
}

export async function readRequest(t: TestApp, who: { token: string }, id: string): Promise<PaymentRequest> {
  const res = await t.request('GET', `/payments/requests/${id}`, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return asked(res);
}

/** [sugar, oil] in stock now. */
export async function stockOf(t: TestApp, shop: PushShop): Promise<[number, number]> {
  return [(await productOf(t, shop.owner, shop.sugar.id)).stock, (await productOf(t, shop.owner, shop.oil.id)).stock];
}

/** The organisation's sales, received payments and the store's receipt counter, as stored. */
export async function booked(t: TestApp, shop: PushShop) {
  const db = t.db.db;
  const [sales, received, store] = await Promise.all([
    db.selectFrom('transactions').selectAll().where('org_id', '=', shop.owner.orgId).execute(),
    db.selectFrom('received_payments').selectAll().where('org_id', '=', shop.owner.orgId).orderBy('received_at').orderBy('id').execute(),
    db
      .selectFrom('stores')
      .select('last_number')
      .where('org_id', '=', shop.owner.orgId)
      .where('id', '=', shop.owner.storeId)
      .executeTakeFirstOrThrow(),
  ]);
  return { sales, received, lastNumber: Number(store.last_number) };
}
