/**
 * runPaymentMatching(deps), on the server's 30 s timer (background-jobs.ts, 'payment-matching'):
 * first the sweep, matching unverified sales whose payment is in but was missed (an instance that
 * stopped between a sale's commit and its after-answer matching); then the sales whose owner's
 * window (`organisations.payment_match_window_min`) has passed since the server received them
 * with still no payment are flagged `unmatched`, and their store is notified: one notification per
 * store and run, naming the sales, so a till that syncs a day of sales at once raises one alert,
 * not fifty. Safe on several instances: the claims are conditional updates (verify-sales.ts), and
 * a sale is flagged by an update that only changes it while it is still unverified, in the same
 * transaction as its notification. A payment arriving later still verifies an unmatched sale.
 */
import { formatTzs } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import { groupBy } from '../../../lib/group-by.js';
import type { Lease } from '../../../lib/leases.js';
import { localDate } from '../../../lib/time.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { markUnmatched, matchPairs, unverifiedPastWindow } from './matching.queries.js';
import { claimMatches } from './verify-sales.js';

const BATCH = 500;
/** A notification names this many sales; the rest are counted. */
const NAMED = 10;

/** `lease`: the job's, when run by the timer; each transaction is fenced by it. */
export async function runPaymentMatching(deps: Deps, lease?: Lease): Promise<{ matched: number; flagged: number }> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'payment-matching' };
  const matched = await sweep(ctx, lease);
  const flagged = lease?.held === false ? 0 : await flagPastWindow(ctx, lease);
  return { matched, flagged };
}

async function sweep(ctx: ServiceContext, lease?: Lease): Promise<number> {
  const pairs = await matchPairs(ctx.db, { states: ['unverified'], limit: BATCH });
  let matched = 0;
  for (const [orgId, ofOrg] of groupBy(pairs, (p) => p.org_id)) {
    try {
      matched += await withTransaction(ctx, async (tx) => {
        await lease?.fence(tx.db);
        return (await claimMatches(tx, ofOrg)).length;
      });
    } catch (err) {
      ctx.log.warn({ err, org_id: orgId }, 'payment matching: sweep failed');
    }
  }
  return matched;
}

async function flagPastWindow(ctx: ServiceContext, lease?: Lease): Promise<number> {
  const due = await unverifiedPastWindow(ctx.db, ctx.clock.now(), BATCH);
  let flagged = 0;
  for (const [key, sales] of groupBy(due, (s) => `${s.org_id}/${s.store_id}`)) {
    const { org_id: orgId, store_id: storeId, window_min: windowMin } = sales[0]!;
    try {
      flagged += await withTransaction(ctx, async (tx) => {
        await lease?.fence(tx.db);
        const rows = await markUnmatched(
          tx.db,
          orgId,
          sales.map((s) => s.id),
          tx.clock.now(),
        );
        if (rows.length === 0) return 0;
        for (const r of rows) noteChange(tx, orgId, { entity: 'transaction', id: r.id, storeId });
        const tz = await orgTimezone(tx.db, orgId);
        const total = rows.reduce((sum, r) => sum + Number(r.total), 0);
        const named = rows
          .slice(0, NAMED)
          .map((r) => `${r.receipt_number} (${formatTzs(Number(r.total))}, ${r.payment_method}, ref ${r.payment_reference ?? '-'})`);
        const more = rows.length > NAMED ? ` and ${rows.length - NAMED} more` : '';
        const n = rows.length;
        await createNotification(tx, {
          orgId,
          storeId,
          category: 'sales',
          title: `${n} mobile-money sale${n === 1 ? '' : 's'} not confirmed (${formatTzs(total)})`,
          body:
            `No payment from the provider matched ${n === 1 ? 'this sale' : 'these sales'} within ${windowMin} minutes: ${named.join(', ')}${more}. ` +
            'Check the reference with the customer or the wallet statement. ' +
            `Malipo ya mauzo ${n === 1 ? 'haya' : `haya ${n}`} ya pesa ya simu hayajaonekana kwa mtoa huduma ndani ya dakika ${windowMin}.`,
          link: `/payments/reconciliation?date=${localDate(Math.min(...rows.map((r) => Number(r.created_at))), tz)}`,
        });
        return n;
      });
    } catch (err) {
      ctx.log.warn({ err, key }, 'payment matching: flagging failed');
    }
  }
  return flagged;
}
