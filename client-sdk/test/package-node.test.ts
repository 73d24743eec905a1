/**
 * The package as an app gets it: plain `node` (no tsx, no loader) imports `@duka/client-sdk` from
 * its built `dist/`, opens a till on `:memory:` with better-sqlite3, dials the websocket with `ws`,
 * and sells against the real server.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, seedShop, serverView, startServer } from './harness.js';

const run = promisify(execFile);

describe('the built package in plain node', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer({ realtime: true })));
  afterAll(() => h.close());

  it('opens a till, signs in, goes live, sells and syncs', async () => {
    const shop = await seedShop(h);
    const script = path.join(import.meta.dirname, 'fixtures/plain-node.mjs');
    // A clean environment: nothing of vitest's or tsx's (NODE_OPTIONS loaders) reaches the child.
    const { stdout } = await run(process.execPath, [script, h.base, shop.owner.phone, shop.owner.password], {
      env: { PATH: process.env.PATH ?? '' },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      signedOut: true,
      live: true,
      product: 'Soda 500ml',
      total: 3000,
      pushed: 1,
      receipt_number: expect.stringMatching(/^[A-Z]+-000001$/),
    });
    const server = await serverView(h, shop);
    expect(await server.stock(shop.soda.id)).toBe(37);
    expect((await server.transactions()).total).toBe(1);
  });
});
