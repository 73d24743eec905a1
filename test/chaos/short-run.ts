/** What the short chaos runs of `npm test` share: a database of the running project's dialect, and what a run must have exercised. */
import { expect } from 'vitest';
import { createTestDb, DIALECT, type TestDb } from '../setup/test-db.js';
import { type ChaosOptions, type ChaosResult, runChaos } from './scenario.js';

/** The server processes open their own pools; the test's handle (kept in `dbs` to drop) only owns the database's lifetime. */
export async function runShort(dbs: TestDb[], o: Omit<ChaosOptions, 'databaseUrl'>): Promise<ChaosResult> {
  let databaseUrl: string | undefined;
  if (DIALECT === 'postgres') {
    const db = await createTestDb();
    dbs.push(db);
    databaseUrl = db.url;
  }
  return runChaos({ ...o, databaseUrl });
}

/** Every invariant held, every sale reached the server, and the run exercised what it is there for. */
export function expectExercised(result: ChaosResult, o: { sales: number; pharmacySales: number }) {
  expect(result.failures).toEqual([]);
  expect(result.figures['server transactions']).toBe(o.sales);
  expect(result.figures['pharmacy server transactions']).toBe(o.pharmacySales);
  // Every retail sale numbered for TRA (gapless, checked in fiscal.ts), and TRA reached through the chaos.
  expect(result.figures['fiscal receipts numbered']).toBe(o.sales);
  expect(Number(result.figures['fiscal receipts acknowledged by TRA'])).toBeGreaterThan(0);
  // Price differences, credit payments, and the pharmacy's own lots kept, lines spanning lots, refunds into quarantine, voids, prescriptions.
  for (const figure of [
    'conflicts: stale_price',
    'credit payments',
    'pharmacy credit payments',
    'kept as the till sent',
    'lines spanning lots',
    'pharmacy quarantine rows',
    'pharmacy voids',
    'pharmacy sales with a prescription',
    // Issue 51 at the SDK tills: kilos, cartons, cash + M-Pesa and cash + credit, refunds of part of a sale over REST.
    'weighed lines',
    'pack lines',
    'split-tender sales',
    'split-tender sales with a credit part',
    'refunds of part of a sale',
    // Issue 51's scale shop: typed kilos, scale labels, cash + M-Pesa, crates.
    'scale shop weighed sales',
    'scale shop scale-label lines',
    'scale shop split-tender sales',
    'scale shop pack sales',
  ]) {
    expect(Number(result.figures[figure]), figure).toBeGreaterThan(0);
  }
}
