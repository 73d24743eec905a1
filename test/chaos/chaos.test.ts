/**
 * The short chaos run of `npm test`: 6 tills × 200 sales (some by the kilo, by the carton of 24 and
 * paid two ways, and part of some refunded over REST: till-shop.ts), and a pharmacy's 2 tills × 100 sales of
 * batch-tracked medicines, and a scale shop's till × 40 sales (by the kilo, from scale labels, by the
 * crate, cash + M-Pesa: scale-shop.ts), through a faulty network, the server SIGKILLed and restarted twice, on
 * the dialect of the running project (two servers on one Postgres: chaos-two-servers.pg.test.ts).
 * `npm run chaos` runs any size (test/chaos/cli.ts).
 */
import { afterAll, describe, it } from 'vitest';
import { DIALECT, type TestDb } from '../setup/test-db.js';
import { expectExercised, runShort } from './short-run.js';

describe(`chaos (${DIALECT})`, () => {
  const dbs: TestDb[] = [];
  afterAll(async () => Promise.all(dbs.map((db) => db.drop())));

  it('6 tills × 200 sales (kilos, cartons, split tender, refunds of part) and 2 pharmacy tills × 100 through refusals, cut requests, lost replies, outages and two server kills: every sale and credit payment once, receipt numbers gapless, stock to the gram, prices, parts, refunds, the shift, balances and every batch exact, every price difference a conflict, no queue left', {
    timeout: 420_000,
  }, async () => {
    const result = await runShort(dbs, { seed: 20261121, tills: 6, sales: 200, pharmacyTills: 2, pharmacySales: 100, durationMs: 40_000 });
    expectExercised(result, { sales: 1200, pharmacySales: 200 });
  });
});
