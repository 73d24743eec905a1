/**
 * Another process holding the SQLite file's write lock (an operator's sqlite3 shell, a bench
 * writing beside the server) makes a write wait busy_timeout, then fail: the client hears 503 with
 * Retry-After, not a 500, and the same request sent again once the lock is gone succeeds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp } from '../setup/test-app.js';

const dir = mkdtempSync(path.join(tmpdir(), 'duka-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a database locked by another process (SQLite)', () => {
  it('answers a write 503 with Retry-After while the lock is held, and takes it after', async () => {
    const file = path.join(dir, 'duka.db');
    const t = await createTestApp({ sqliteFile: file });
    try {
      const owner = await registerOwner(t);
      const other = new SQLite(file);
      other.exec('begin immediate');
      const product = { name: 'Soda', selling_price: 1000, stock: 5 };
      const refused = await t.request('POST', '/inventory/products', { token: owner.token, body: product });
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.errors).toEqual([
        { code: 'SERVICE_UNAVAILABLE', message: 'the database is busy; send it again after Retry-After' },
      ]);
      other.exec('rollback');
      other.close();
      const taken = await t.request('POST', '/inventory/products', { token: owner.token, body: product });
      expect(taken.status, taken.text).toBe(200);
      const list = await t.request('GET', '/inventory/products', { token: owner.token });
      expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Soda']);
    } finally {
      await t.close();
    }
  }, 30_000);
});
