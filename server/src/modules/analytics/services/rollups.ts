/**
 * Daily rollups kept current at read time (issue 8). Selling, refunding and voiding write nothing
 * for analytics: every such write already logs the sale in the change log (bumping the
 * organisation's version), so before reading the rollups an analytics request folds in what the
 * log gained since the version the rollups hold, recomputing exactly the (store, local day) pairs
 * touched. Everything happens in one transaction holding the organisation's state row locked, so
 * two requests never fold the same change twice; a sale committing meanwhile has a higher version
 * and is folded by the next request. The rollups are rebuilt from the ledger when they were never
 * built, when the organisation's time zone changed (days are cut anew) and when the change log was
 * pruned past their version (what happened in between is unknown).
 */
import type { ServiceContext } from '../../../lib/context.js';
import { withTransaction } from '../../../db/transaction.js';
import { addDays, localDate, localDayRange } from '../../../lib/time.js';
import {
  analyzeRollups,
  changedSales,
  type DaySpan,
  deleteRollups,
  ensureRollupState,
  insertRollups,
  lockRollupState,
  rollupStatus,
  salesSpan,
  saveRollupState,
} from '../analytics-rollups.queries.js';

/** Days recomputed by one INSERT … SELECT. */
const BATCH_DAYS = 31;

const spansOf = (days: string[], tz: string): DaySpan[] => days.map((day) => ({ day, ...localDayRange(day, tz) }));

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Every day of the organisation's sales, from scratch. */
async function rebuildAll(ctx: ServiceContext, orgId: string, tz: string) {
  await deleteRollups(ctx.db, orgId);
  const span = await salesSpan(ctx.db, orgId);
  if (!span) return;
  const days: string[] = [];
  for (let d = localDate(span.first, tz), last = localDate(span.last, tz); d <= last; d = addDays(d, 1)) days.push(d);
  for (const batch of chunks(days, BATCH_DAYS)) await insertRollups(ctx.db, orgId, null, spansOf(batch, tz));
  // Months of history make these tables big at once: plan them from fresh statistics (a short history is not worth a scan).
  if (days.length > 90) await analyzeRollups(ctx.db);
}

/** The (store, day) pairs of the sales logged in (after, upTo], recomputed. */
async function refreshChanged(ctx: ServiceContext, orgId: string, tz: string, after: number, upTo: number) {
  const byStore = new Map<string, Set<string>>();
  for (const s of await changedSales(ctx.db, orgId, after, upTo)) {
    const days = byStore.get(s.store_id) ?? new Set<string>();
    days.add(localDate(Number(s.created_at), tz));
    byStore.set(s.store_id, days);
  }
  for (const [storeId, days] of byStore) {
    for (const batch of chunks([...days].sort(), BATCH_DAYS)) {
      await deleteRollups(ctx.db, orgId, { storeId, days: batch });
      await insertRollups(ctx.db, orgId, storeId, spansOf(batch, tz));
    }
  }
  return byStore.size;
}

/**
 * Bring the organisation's rollups up to its current version. Unchanged since the last refresh:
 * one indexed read, no transaction, no write.
 */
export async function refreshRollups(ctx: ServiceContext, orgId: string): Promise<void> {
  const seen = await rollupStatus(ctx.db, orgId);
  if (!seen || (seen.built === seen.version && seen.builtTz === seen.tz && seen.floor <= seen.built)) return;
  await withTransaction(ctx, async (tx) => {
    await ensureRollupState(tx.db, orgId);
    const state = await lockRollupState(tx.dialect, tx.db, orgId);
    // Read under the lock: what a refresh that held it before us left is the starting point.
    const now = (await rollupStatus(tx.db, orgId))!;
    const built = Number(state.version);
    if (state.time_zone === now.tz && built === now.version) return;
    if (state.time_zone !== now.tz || now.floor > built || built > now.version) await rebuildAll(tx, orgId, now.tz);
    else await refreshChanged(tx, orgId, now.tz, built, now.version);
    await saveRollupState(tx.db, orgId, now.version, now.tz);
  });
}
