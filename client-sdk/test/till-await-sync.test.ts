import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Till } from '../src/index.js';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

describe('till: awaiting a sync', () => {
  let h: Harness;
  const open: Till[] = [];
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await h.close();
  });
  const till = async (o: Parameters<typeof openTill>[1] = {}) => {
    const t = await openTill(h, o);
    open.push(t);
    return t;
  };

  it('answers the bootstrap to a syncNow right after login, though login had started that sync already', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, realtime: false });
    await signIn(t, shop);
    const report = await t.syncNow();
    // The same report as a till that syncs only when told: the whole shop, bootstrapped.
    const manual = await till();
    await signIn(manual, shop);
    expect(await manual.syncNow()).toMatchObject({ bootstrapped: true, pushed: 0, pulled: 9, numbered: [] });
    expect(report).toMatchObject({ bootstrapped: true, pushed: 0, pulled: 9, numbered: [] });
    expect(t.status()).toMatchObject({ bootstrapped: true, pending: 0 });
  });
});
