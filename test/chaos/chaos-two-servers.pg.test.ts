/**
 * The short two-server chaos run of `npm test` (PostgreSQL only: SQLite has one process): two
 * server processes on one database, each store's tills pinned to either server or behind a load
 * balancer that picks one per request, so a store's pushes reach both at once; both servers
 * SIGKILLed twice in turn; the same faults, outages and end checks as chaos.test.ts. `npm run
 * chaos -- --servers 2` runs any size.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestDb } from '../setup/test-db.js';
import { expectExercised, runShort } from './short-run.js';

describe('chaos with two servers on one PostgreSQL', () => {
  const dbs: TestDb[] = [];
  afterAll(async () => Promise.all(dbs.map((db) => db.drop())));

  it('6 tills × 170 sales (kilos, cartons, split tender, refunds of part) and 2 pharmacy tills × 80, split over two servers and switching between them, through the faults and four kills: every sale and credit payment once, receipt numbers gapless per store, stock to the gram, parts, refunds, the shift, balances and every batch exact', {
    timeout: 420_000,
  }, async () => {
    const result = await runShort(dbs, {
      seed: 20261123,
      servers: 2,
      tills: 6,
      sales: 170,
      pharmacyTills: 2,
      pharmacySales: 80,
      durationMs: 34_000,
    });
    expectExercised(result, { sales: 1020, pharmacySales: 160 });
    expect(result.figures['server kills']).toBe(4);
    expect(Number(result.figures['connections to server 1'])).toBeGreaterThan(0);
    expect(Number(result.figures['connections to server 2'])).toBeGreaterThan(0);
    expect(result.figures['tills switching server per request']).toBe(3);
  });
});
