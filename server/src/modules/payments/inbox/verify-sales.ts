/**
 * Offline mobile-money sales verified against the payments their provider reported (issue 38).
 * Which sale and payment belong together is `matchPairs` (matching.queries.ts); here the pairs it
 * offers are claimed. Each claim takes the payment, then the sale, each by a conditional update,
 * inside a savepoint: if the sale was taken meanwhile the payment is given back, so one payment
 * verifies one sale and a sale takes one payment even with two instances matching at once (the
 * second's update finds the row changed and matches nothing). Payment before sale, always: two
 * claims never wait on each other in opposite orders.
 *
 * Three triggers: the sales a till or the API just wrote (`SaleVerifier.soon`, after the answer),
 * the payment a callback just stored (`matchReceivedPayment`, in the callback's transaction), and
 * the job's sweep (matching-job.ts) for what either missed.
 */
import { noteChange } from '../../../db/change-log.js';
import { withSavepoint, withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext, TxContext } from '../../../lib/context.js';
import { claimPayment, type MatchPair, markVerified, matchPairs } from './matching.queries.js';
import type { SaleVerificationPort } from './sale-verification-port.js';

/** Thrown inside the savepoint to undo a half claim. */
class Taken extends Error {
  constructor(readonly side: 'payment' | 'sale') {
    super(`${side} already matched`);
  }
}

async function claim(tx: TxContext, pair: MatchPair): Promise<'matched' | Taken['side']> {
  try {
    return await withSavepoint(tx, async () => {
      const now = tx.clock.now();
      if (!(await claimPayment(tx.db, pair, now))) throw new Taken('payment');
      if (!(await markVerified(tx.db, pair, now))) throw new Taken('sale');
      // Tills pull the sale again and show it verified.
      noteChange(tx, pair.org_id, { entity: 'transaction', id: pair.sale_id, storeId: pair.store_id });
      return 'matched' as const;
    });
  } catch (err) {
    if (err instanceof Taken) return err.side;
    throw err;
  }
}

/** Claims the pairs in their order, each sale and each payment at most once; the pairs matched. */
export async function claimMatches(tx: TxContext, pairs: MatchPair[]): Promise<MatchPair[]> {
  const sales = new Set<string>();
  const payments = new Set<string>();
  const matched: MatchPair[] = [];
  for (const pair of pairs) {
    if (sales.has(pair.sale_id) || payments.has(pair.payment_id)) continue;
    const outcome = await claim(tx, pair);
    if (outcome !== 'sale') payments.add(pair.payment_id);
    if (outcome !== 'payment') sales.add(pair.sale_id);
    if (outcome === 'matched') matched.push(pair);
  }
  return matched;
}

/** The sales just written, against the payments already received (the customer paid before the till synced). */
export async function verifySales(ctx: ServiceContext, orgId: string, saleIds: string[]): Promise<MatchPair[]> {
  if (saleIds.length === 0) return [];
  return withTransaction(ctx, async (tx) => claimMatches(tx, await matchPairs(tx.db, { orgId, saleIds })));
}

/** A paid payment a callback just stored, against the sales waiting for it; called in the callback's transaction. */
export async function matchReceivedPayment(tx: TxContext, orgId: string, paymentId: string): Promise<MatchPair | null> {
  const [matched] = await claimMatches(tx, await matchPairs(tx.db, { orgId, paymentId }));
  return matched ?? null;
}

/**
 * The port behind `ctx.saleVerification`: the sale's write queues its unverified sales here after
 * commit, and they are matched after the answer, on a context of their own (the sale's transaction
 * is over by then), so neither the cashier nor a till's push waits on it.
 */
export class SaleVerifier implements SaleVerificationPort {
  constructor(private readonly deps: Deps) {}

  soon(orgId: string, saleIds: string[]): void {
    const ctx: ServiceContext = { ...this.deps, actor: null, requestId: 'verify-sales' };
    this.deps.afterAnswer.run('verify-sales', () => verifySales(ctx, orgId, saleIds));
  }
}
