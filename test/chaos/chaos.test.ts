/**
 * The short chaos run of `npm test`: 6 tills × 300 sales, and a pharmacy's 2 tills × 150 sales of
 * batch-tracked medicines, through a faulty network, the server SIGKILLed and restarted twice, on
 * the dialect of the running project. `npm run chaos` runs any
 * size (test/chaos/cli.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, DIALECT, type TestDb } from '../setup/test-db.js';
import { runChaos } from './scenario.js';

describe(`chaos (${DIALECT})`, () => {
  let db: TestDb | undefined;
  afterAll(async () => db?.drop());

  it('6 tills × 300 sales and 2 pharmacy tills × 150 through refusals, cut requests, lost replies, outages and two server kills: every sale once, stock, prices and every batch exact, every price difference a conflict, no queue left', { timeout: 420_000 }, async () => {
    let databaseUrl: string | undefined;
    if (DIALECT === 'postgres') {
      db = await createTestDb();
      databaseUrl = db.url;
      // The server process opens its own pool; this handle only owns the database's lifetime.
    }
    const result = await runChaos({ seed: 20261121, tills: 6, sales: 300, pharmacyTills: 2, pharmacySales: 150, durationMs: 60_000, databaseUrl });
    expect(result.failures).toEqual([]);
    expect(result.figures['server transactions']).toBe(1800);
    expect(Number(result.figures['conflicts: stale_price'])).toBeGreaterThan(0);
    expect(result.figures['pharmacy server transactions']).toBe(300);
    // The pharmacy part exercised what it is there for: tills' own lots kept, lines spanning lots, refunds into quarantine, voids, prescriptions.
    for (const figure of ['kept as the till sent', 'lines spanning lots', 'pharmacy quarantine rows', 'pharmacy voids', 'pharmacy sales with a prescription']) {
      expect(Number(result.figures[figure]), figure).toBeGreaterThan(0);
    }
  });
});
