/**
 * POST /pos/sale. Online sales of one store that arrive while an earlier batch of that store's
 * sales is being written wait for it, then are written together: one transaction, one
 * `recordSales`, the sale pipeline (issue 17). A store's sales take its receipt counter and stock rows, so they run
 * one after another anyway (SQLite has one writer; Postgres holds the store row from the stock read
 * to the commit); written together, the sales that queued meanwhile cost the statements and the
 * commit of one sale instead of one each, and the lock is held once for all of them.
 *
 * Each request keeps what is its own: its actor (cashier, discount permission, audit and ledger
 * user), its Idempotency-Key (claimed before it queues, its answer stored in the shared
 * transaction) and its answer. A refused sale is refused alone: `planSale` changes nothing for the
 * sales after it. If the shared transaction fails as a whole (a database error, not a rule), each of
 * its sales is tried again in a transaction of its own, so one sale's fault is never another's.
 * The queue and the retry alone are lib/store-batches.ts, which sync pushes of a store share.
 */
import type { CreateSaleInput, Transaction } from '@duka/shared';
import type { PendingCommit } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { claimKey, completeKey, type KeyClaim, releaseKey } from '../../../lib/idempotency.js';
import { type Outcome, storeBatches } from '../../../lib/store-batches.js';
import { toFiscal } from '../../fiscal/fiscal.exports.js';
import { toTransaction, withLines } from '../pos.queries.js';
import { type RecordedSale, recordSales } from '../sale/pipeline.js';

/** The answer of POST /pos/sale, as stored for an Idempotency-Key. */
export interface SaleAnswerBody {
  sale: Transaction;
  /** A sale with this client id was already recorded: nothing new was written. */
  replayed: boolean;
}

export interface OnlineSale {
  body: SaleAnswerBody;
  /** The answer is an earlier request's, replayed for the same Idempotency-Key. */
  keyReplayed: boolean;
}

interface Waiting {
  ctx: AuthedContext;
  input: CreateSaleInput;
  claim: KeyClaim | null;
}

/** Per database, per store: the sales waiting while a batch of the store is written. */
const batches = storeBatches<AuthedContext, Waiting, SaleAnswerBody>({
  // Enough for a till fleet's burst; a bigger batch only holds the store's lock longer.
  maxJobs: 64,
  write: writeBatch,
  failed: async (sale) => {
    if (sale.claim) await freeKey(sale);
  },
});

export async function sellOnline(ctx: AuthedContext, input: CreateSaleInput, idempotencyKey?: string): Promise<OnlineSale> {
  const { storeId } = requireStore(ctx);
  const claimed = await claimKey(ctx, { key: idempotencyKey, route: 'POST /pos/sale', body: input });
  if ('replay' in claimed) return { body: claimed.replay.body as SaleAnswerBody, keyReplayed: true };
  const body = await batches.run(storeId, { ctx, input, claim: claimed.claim });
  return { body, keyReplayed: false };
}

async function writeBatch(tx: AuthedContext & { pending: PendingCommit }, batch: Waiting[]): Promise<Outcome<SaleAnswerBody>[]> {
  const outcomes = await recordSales(
    tx,
    batch.map((w) => ({ input: w.input, opts: { source: 'online' as const }, actor: w.ctx.actor })),
  );
  const out: Outcome<SaleAnswerBody>[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    if (!outcome.ok) {
      out.push(outcome);
      continue;
    }
    const body = { sale: await saleAnswer(tx, outcome.sale), replayed: outcome.sale.replayed };
    const claim = batch[i]!.claim;
    if (claim) await completeKey(tx, claim, { status: 201, body });
    out.push({ ok: true, value: body });
  }
  return out;
}

/**
 * The transaction answer (with lines) for a recorded sale. A new sale's fiscal receipt comes without
 * its QR code (null): drawing it is the sale's dearest step, and the receipt is printed from a read.
 */
async function saleAnswer(ctx: AuthedContext, sale: RecordedSale) {
  if (!sale.lines || !sale.payments) return (await withLines(ctx.db, [sale.row]))[0]!;
  return toTransaction(sale.row, sale.lines, sale.lots, sale.fiscal ? toFiscal(sale.fiscal, null) : null, sale.payments);
}

async function freeKey(sale: Waiting) {
  await releaseKey(sale.ctx, sale.claim!).catch((err) =>
    sale.ctx.log.error({ err, req_id: sale.ctx.requestId }, 'could not free an idempotency key'),
  );
}
