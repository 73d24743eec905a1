/** Reading what the daily expiry job did, through the API where there is a route. */
import { expect } from 'vitest';
import { batchRows } from './pharmacy-factories.js';
import type { TestApp } from './test-app.js';

export const DAY = 86_400_000;

/** The expiry job's notices of the caller's store, by title (a sale may also raise a low-stock one: left out). */
export async function expiryNotices(t: TestApp, s: { token: string }) {
  const res = await t.request('GET', '/notifications?page_size=100', { token: s.token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data.notifications as Array<{ category: string; title: string; body: string; link: string }>)
    .filter((n) => n.link.startsWith('/pharmacy/'))
    .map(({ category, title, body, link }) => ({ category, title, body, link }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

/** A product's lots in a store: number, status, units, and whether it is a quarantine row. */
export async function lotStates(t: TestApp, storeId: string, productId: string) {
  return (await batchRows(t, storeId, productId)).map(({ lot_number, status, qty_on_hand, source_batch_id }) => ({
    lot_number,
    status,
    qty_on_hand,
    quarantine: source_batch_id !== null,
  }));
}
