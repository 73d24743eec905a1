/**
 * POST /pos/sale. Online sales of one store that arrive while an earlier batch of that store's
 * sales is being written wait for it, then are written together: one transaction, one
 * `recordSales` (issue 17). A store's sales take its receipt counter and stock rows, so they run
 * one after another anyway (SQLite has one writer; Postgres holds the store row from the stock read
 * to the commit); written together, the sales that queued meanwhile cost the statements and the
 * commit of one sale instead of one each, and the lock is held once for all of them.
 *
 * Each request keeps what is its own: its actor (cashier, discount permission, audit and ledger
 * user), its Idempotency-Key (claimed before it queues, its answer stored in the shared
 * transaction) and its answer. A refused sale is refused alone: `planSale` changes nothing for the
 * sales after it. If the shared transaction fails as a whole (a database error, not a rule), each of
 * its sales is tried again in a transaction of its own, so one sale's fault is never another's.
 * Batches are per process: several server instances each batch their own, and the database's locks
 * order them as before.
 */
import type { CreateSaleInput, Transaction } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import type { ServiceError } from '../../../lib/errors.js';
import { claimKey, completeKey, type KeyClaim, releaseKey } from '../../../lib/idempotency.js';
import { recordSales, saleAnswer } from './record-sale.js';

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
  resolve(body: SaleAnswerBody): void;
  reject(error: unknown): void;
}

/** Enough for a till fleet's burst; a bigger batch only holds the store's lock longer. */
const MAX_BATCH = 64;

/** Per database (one per app), per store: the sales waiting while a batch of the store is written. */
const waiting = new WeakMap<object, Map<string, Waiting[]>>();

export async function sellOnline(ctx: AuthedContext, input: CreateSaleInput, idempotencyKey?: string): Promise<OnlineSale> {
  const { storeId } = requireStore(ctx);
  const claimed = await claimKey(ctx, { key: idempotencyKey, route: 'POST /pos/sale', body: input });
  if ('replay' in claimed) return { body: claimed.replay.body as SaleAnswerBody, keyReplayed: true };
  const body = await new Promise<SaleAnswerBody>((resolve, reject) =>
    enqueue(storeId, { ctx, input, claim: claimed.claim, resolve, reject }),
  );
  return { body, keyReplayed: false };
}

function enqueue(storeId: string, sale: Waiting) {
  let stores = waiting.get(sale.ctx.db);
  if (!stores) waiting.set(sale.ctx.db, (stores = new Map()));
  const queue = stores.get(storeId);
  if (queue) {
    queue.push(sale);
    return;
  }
  // No batch of this store is being written: this sale starts one at once, and the queue stays
  // (empty) while it is written, so sales arriving meanwhile join the next.
  stores.set(storeId, [sale]);
  void drain(stores, storeId);
}

async function drain(stores: Map<string, Waiting[]>, storeId: string) {
  const queue = stores.get(storeId)!;
  while (queue.length) await writeBatch(queue.splice(0, MAX_BATCH));
  stores.delete(storeId);
}

async function writeBatch(batch: Waiting[]): Promise<void> {
  type Result = { ok: true; body: SaleAnswerBody } | { ok: false; error: ServiceError };
  let results: Result[];
  try {
    results = await withTransaction(batch[0]!.ctx, async (tx) => {
      const outcomes = await recordSales(
        tx,
        batch.map((w) => ({ input: w.input, opts: { source: 'online' as const }, actor: w.ctx.actor })),
      );
      const out: Result[] = [];
      for (const [i, outcome] of outcomes.entries()) {
        if (!outcome.ok) {
          out.push(outcome);
          continue;
        }
        const body = { sale: await saleAnswer(tx, outcome.sale), replayed: outcome.sale.replayed };
        const claim = batch[i]!.claim;
        if (claim) await completeKey(tx, claim, { status: 201, body });
        out.push({ ok: true, body });
      }
      return out;
    });
  } catch (error) {
    if (batch.length > 1) {
      for (const sale of batch) await writeBatch([sale]);
      return;
    }
    // Not a rule's refusal (those are results): the caller gets the error as it is.
    const [sale] = batch as [Waiting];
    if (sale.claim) await freeKey(sale);
    sale.reject(error);
    return;
  }
  for (const [i, result] of results.entries()) {
    const sale = batch[i]!;
    if (result.ok) sale.resolve(result.body);
    else {
      if (sale.claim) await freeKey(sale);
      sale.reject(result.error);
    }
  }
}

async function freeKey(sale: Waiting) {
  await releaseKey(sale.ctx, sale.claim!).catch((err) =>
    sale.ctx.log.error({ err, req_id: sale.ctx.requestId }, 'could not free an idempotency key'),
  );
}
