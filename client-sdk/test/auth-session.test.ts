/**
 * The till's token handling (`AuthSession`) on its own, against the real server. An internal class,
 * so unlike the other till tests this one runs on the source, not on the built package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSession } from '../src/auth.js';
import { HttpConnector } from '../src/http/connector.js';
import { openLocalDb } from '../src/local/db.js';
import { migrateLocal } from '../src/local/migrations.js';
import { sqliteFile } from '../src/node/storage.js';
import { type Harness, seedShop, startServer } from './harness.js';

const MIN = 60_000;

describe('till: the auth session', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());
  const refreshes = (from: number) => h.net.calls.slice(from).filter((c) => c === 'POST /auth/refresh').length;

  it('refreshes on a 401 and retries, once for many requests at the same time', async () => {
    const shop = await seedShop(h);
    const db = openLocalDb(sqliteFile(':memory:'));
    await migrateLocal(db);
    // The till's clock lags: it believes its token is fresh, the server says it has expired.
    const lagging = h.t.clock.now();
    const connector = new HttpConnector({ baseUrl: h.base, fetch: h.net.fetch });
    let asked = 0;
    const auth = new AuthSession({
      db,
      connector,
      signal: new AbortController().signal,
      now: () => lagging,
      onAuthRequired: () => asked++,
    });
    await auth.login(shop.owner.phone, shop.owner.password);
    const pull = () => auth.authed(({ connector }, token, signal) => connector.pull(token, {}, signal));
    const first = await pull();
    h.t.clock.advance(16 * MIN);

    const from = h.net.calls.length;
    const pulls = await Promise.all(Array.from({ length: 5 }, pull));
    expect(pulls.map((p) => p.cursor)).toEqual(Array(5).fill(first.cursor));
    expect(refreshes(from)).toBe(1);
    // The rotated family is intact: a later refresh still works.
    await auth.refresh();
    expect(await pull()).toBeTruthy();
    expect(asked).toBe(0);
    await db.destroy();
  });
});
