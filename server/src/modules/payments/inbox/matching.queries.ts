/**
 * The matching rule of a mobile-money sale and a payment its provider reported (issue 38), written
 * once as a join that every direction filters: the sales a till just pushed, the payment a callback
 * just stored, and the job's sweep. A sale waiting for its payment (`unverified`, or `unmatched`
 * once the owner's window passed) and a paid payment no sale has claimed match when:
 * - the payment went into the sale's store's own account or the organisation-wide one;
 * - the provider's reference (`provider_ref`), the one it echoed (`reference`) or the mobile
 *   network's own (`wallet_ref`) is the reference the cashier typed from the customer's SMS,
 *   trimmed and in any case;
 * - the amounts are equal to the cent (a right reference with another amount is not the sale's): the
 *   sale's mobile-money part's new money, `newMoney` (issue 51: a sale paid 5,000 cash + 7,500 M-Pesa
 *   waits for 7,500; a sale paid one way has one part, its total; issue 52: an exchange's new sale
 *   paid M-Pesa 20,000 mirrored from the old sale's refund + 5,000 waits for 5,000);
 * - they are within MATCH_LOOKBACK_MS of each other, which only keeps the join on recent rows.
 * The phone is not compared: someone else may pay for the customer. Pairs come oldest sale first,
 * then oldest payment, so of two sales naming one payment the first rung up takes it.
 */
import { MobileMoneyMethod, type PaymentVerification } from '@duka/shared';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';

/**
 * What a mobile-money part (`tp`) is to receive from the provider: its amount less what an exchange's
 * refund paid of it (migration 0049), which is the old sale's money, reported for that sale. The one
 * rule matching and the owner's reconciliation read.
 */
export const newMoney = () => sql<number>`(tp.amount - tp.mirrored)`;

/** Providers' references are unique for years; this bound is for the query's sake (a month each way). */
export const MATCH_LOOKBACK_MS = 30 * 86_400_000;

type Joined = ExpressionBuilder<
  Database & { t: Database['transactions']; tp: Database['transaction_payments']; p: Database['received_payments'] },
  't' | 'tp' | 'p'
>;

const folded = (eb: Joined, column: 't.payment_reference' | 'p.provider_ref' | 'p.reference' | 'p.wallet_ref') =>
  eb.fn<string>('lower', [eb.fn<string>('trim', [eb.ref(column)])]);

/** A sale and the payment that may be its, in the order they are tried. */
export interface MatchPair {
  org_id: string;
  store_id: string;
  sale_id: string;
  payment_id: string;
}

export interface MatchFilter {
  /** The sales of one organisation to match (absent: every organisation's, the job's sweep). */
  orgId?: string;
  saleIds?: string[];
  paymentId?: string;
  /** Which waiting sales; default both. */
  states?: Array<Extract<PaymentVerification, 'unverified' | 'unmatched'>>;
  limit?: number;
}

export function matchPairs(db: Kysely<Database>, f: MatchFilter): Promise<MatchPair[]> {
  return db
    .selectFrom('transactions as t')
    .innerJoin('transaction_payments as tp', (j) =>
      j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id').on('tp.method', 'in', MobileMoneyMethod.options),
    )
    .innerJoin('received_payments as p', (j) =>
      j
        .onRef('p.org_id', '=', 't.org_id')
        .on((eb) => eb.or([eb('p.store_id', 'is', null), eb('p.store_id', '=', eb.ref('t.store_id'))]))
        .on((eb) => eb('p.amount', '=', newMoney()))
        .on((eb) =>
          eb.or([
            eb(folded(eb, 'p.provider_ref'), '=', folded(eb, 't.payment_reference')),
            eb(folded(eb, 'p.reference'), '=', folded(eb, 't.payment_reference')),
            eb(folded(eb, 'p.wallet_ref'), '=', folded(eb, 't.payment_reference')),
          ]),
        ),
    )
    .select(['t.org_id', 't.store_id', 't.id as sale_id', 'p.id as payment_id'])
    .where('t.payment_verification', 'in', f.states ?? ['unverified', 'unmatched'])
    .where((eb) => eb(folded(eb, 't.payment_reference'), '!=', ''))
    .where('p.status', '=', 'paid')
    .where('p.matched_sale_id', 'is', null)
    .where((eb) => eb('p.received_at', '>=', eb('t.created_at', '-', MATCH_LOOKBACK_MS)))
    .where((eb) => eb('t.created_at', '>=', eb('p.received_at', '-', MATCH_LOOKBACK_MS)))
    .$if(f.orgId !== undefined, (qb) => qb.where('t.org_id', '=', f.orgId!))
    .$if(f.saleIds !== undefined, (qb) => qb.where('t.id', 'in', f.saleIds!.length ? f.saleIds! : ['']))
    .$if(f.paymentId !== undefined, (qb) => qb.where('p.id', '=', f.paymentId!))
    .$if(f.orgId === undefined, (qb) => qb.modifyEnd(crossOrg('job scan')))
    .orderBy('t.created_at')
    .orderBy('t.id')
    .orderBy('p.received_at')
    .orderBy('p.id')
    .$if(f.limit !== undefined, (qb) => qb.limit(f.limit!))
    .execute();
}

/** The payment's side of a match: only while no sale has it. */
export async function claimPayment(db: Kysely<Database>, pair: MatchPair, now: number): Promise<boolean> {
  const res = await db
    .updateTable('received_payments')
    .set({ matched_sale_id: pair.sale_id, matched_at: now })
    .where('org_id', '=', pair.org_id)
    .where('id', '=', pair.payment_id)
    .where('matched_sale_id', 'is', null)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The sale's side: only while it still waits (an `unmatched` sale is verified by a late payment too). */
export async function markVerified(db: Kysely<Database>, pair: MatchPair, now: number): Promise<boolean> {
  const res = await db
    .updateTable('transactions')
    .set({ payment_verification: 'verified', updated_at: now })
    .where('org_id', '=', pair.org_id)
    .where('id', '=', pair.sale_id)
    .where('payment_verification', 'in', ['unverified', 'unmatched'])
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await markParts(db, pair.org_id, [pair.sale_id], 'verified');
  return true;
}

/** The mobile-money part keeps the sale's verification (issue 51), changed with it. */
async function markParts(db: Kysely<Database>, orgId: string, saleIds: string[], state: PaymentVerification) {
  if (saleIds.length === 0) return;
  await db
    .updateTable('transaction_payments')
    .set({ verification: state })
    .where('org_id', '=', orgId)
    .where('transaction_id', 'in', saleIds)
    .where('verification', 'is not', null)
    .execute();
}

/** Unverified sales whose organisation's window has passed since the server received them, oldest first. */
export function unverifiedPastWindow(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('organisations as o', 'o.id', 't.org_id')
    .select(['t.org_id', 't.store_id', 't.id', 'o.payment_match_window_min as window_min'])
    .where('t.payment_verification', '=', 'unverified')
    .where((eb) => eb(eb('t.received_at', '+', eb('o.payment_match_window_min', '*', 60_000)), '<=', now))
    .orderBy('t.received_at')
    .orderBy('t.id')
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** Flags the sales still unverified as unmatched; those it flagged. */
export async function markUnmatched(db: Kysely<Database>, orgId: string, ids: string[], now: number) {
  const flagged = await db
    .updateTable('transactions')
    .set({ payment_verification: 'unmatched', updated_at: now })
    .where('org_id', '=', orgId)
    .where('id', 'in', ids)
    .where('payment_verification', '=', 'unverified')
    .returning(['id', 'store_id', 'receipt_number', 'total', 'payment_method', 'payment_reference', 'created_at'])
    .execute();
  await markParts(
    db,
    orgId,
    flagged.map((r) => r.id),
    'unmatched',
  );
  return flagged;
}
