/**
 * POST /sync/push (design §4). A device's mutations run in `seq` order inside ONE transaction that
 * is committed durably before the reply, together with the record of each result: a rejected
 * mutation changes nothing and the queue moves on; a crash before the reply loses nothing the till
 * will not resend, and a resent mutation (same id, or a seq at or below the device's last applied
 * one) answers its recorded result and changes nothing. Runs of sales are reconciled as a set
 * (`applySales`): read once, worked out in memory, written in a few statements (issue 17); any other
 * mutation runs alone in a savepoint. Pushes of one store that queue together share that
 * transaction, each in a savepoint of its own (issue 39, `batches` below).
 */
import { MAX_PUSH_MUTATIONS, type Mutation, type MutationResult, type PushRequest, type PushResponse } from '@duka/shared';
import { type PendingCommit, withSavepoint, withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { refusalError, ServiceError, ValidationError } from '../../../lib/errors.js';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import { findDevice } from './devices.js';
import { applyExchange } from './exchange-mutation.js';
import { runMutation } from './mutators.js';
import { applySales } from './sale-mutations.js';
import { deferSaleStock, writeDeferredStock } from '../../../modules/pos/pos.exports.js';
import { forUpdate, insertWrite, queryWrite, writeTogether } from '../../../db/dialect.js';
import { iso } from '../../../lib/clock.js';
import { answerSeen, readSeen, repeatOf } from './push-answers.js';
import { type Outcome, storeBatches } from '../../../lib/store-batches.js';

export async function pushMutations(ctx: AuthedContext, req: PushRequest): Promise<PushResponse> {
  const answer = await applyPush(ctx, req);
  // Read after the work: the till measures its clock against the moment it got the answer.
  return { ...answer, server_time: iso(ctx.clock.now()) };
}

async function applyPush(ctx: AuthedContext, req: PushRequest): Promise<Answer> {
  if (req.mutations.length > MAX_PUSH_MUTATIONS)
    throw new ServiceError('PAYLOAD_TOO_LARGE', `at most ${MAX_PUSH_MUTATIONS} mutations a push`);
  const mutations = [...req.mutations].sort((a, b) => a.seq - b.seq);
  mutations.forEach((m, i) => {
    if (i > 0 && m.seq !== mutations[i - 1]!.seq + 1)
      throw new ValidationError(`mutations.${i}.seq`, 'must follow the previous seq by one');
  });
  const device = await findDevice(ctx, req.device_id);
  // Every mutation at or below the device's last applied seq: a re-sent batch (a till that lost
  // the answer). Its results are recorded and never change, so they are answered from one read,
  // without the device's lock or a durable commit; a till re-sending after an outage costs little.
  if (mutations[mutations.length - 1]!.seq <= device.last_seq) {
    const seen = await readSeen(ctx, device.id, mutations);
    const results = mutations.map((m) => answerSeen(m, seen, device.id, device.last_seq)!);
    const now = ctx.clock.now();
    if (now - (device.last_seen_at ?? 0) >= SEEN_EVERY_MS)
      await ctx.db
        .updateTable('devices')
        .set({ last_seen_at: now })
        .where('id', '=', device.id)
        .where('org_id', '=', device.org_id)
        .execute();
    return { results, last_applied_seq: device.last_seq };
  }

  const storeId = ctx.actor.storeId;
  // A push with no store (an organisation-level session) has no store lock to queue behind; one
  // inside a caller's transaction is part of that transaction's work.
  if (!storeId || ctx.pending) return withTransaction(ctx, (tx) => writePush(tx, device, mutations));
  return batches.run(storeId, { ctx, device, mutations });
}

type Answer = Omit<PushResponse, 'server_time'>;

interface QueuedPush {
  ctx: AuthedContext;
  device: DeviceRow;
  mutations: Mutation[];
}

/**
 * Pushes of one store that queue behind its row lock are written in one transaction (as online
 * sales are, lib/store-batches.ts), each in its own savepoint with its own context (actor, request
 * id, log), device lock, seq check and recorded results: a push refused (a seq CONFLICT, a rule)
 * rolls back its own savepoint only. The cap is on mutations as much as pushes: a batch of up to
 * 1,000 mutations holds the store lock about as long as two of the biggest pushes allowed
 * (MAX_PUSH_MUTATIONS, 500) did one after the other, so a till queued behind it waits no longer
 * than it could today, while the small pushes of a fleet (a few sales each) share a commit 64 at a time.
 */
const batches = storeBatches<AuthedContext, QueuedPush, Answer>({
  maxJobs: 64,
  maxWeight: 1_000,
  weight: (push) => push.mutations.length,
  write: async (tx, batch, own) => {
    // Alone, the push is today's: its transaction is its own, no savepoint needed.
    if (batch.length === 1) return [{ ok: true, value: await writePush(tx, batch[0]!.device, batch[0]!.mutations) }];
    const out: Outcome<Answer>[] = [];
    for (const [i, push] of batch.entries()) {
      // The pushes' sales move the same stock rows: written once, at the end (pos's deferred-stock.ts).
      // A push with anything else (a refund reads and moves stock rows itself) finds them written.
      if (push.mutations.every((m) => m.type === 'sale.create')) deferSaleStock(tx);
      else await writeDeferredStock(tx);
      const ctx = { ...push.ctx, db: tx.db, pending: tx.pending };
      try {
        out.push({ ok: true, value: await own(i, () => withSavepoint(ctx, () => writePush(ctx, push.device, push.mutations))) });
      } catch (error) {
        // Anything but a refusal fails the whole batch, and each push is then tried alone.
        if (!(error instanceof ServiceError)) throw error;
        out.push({ ok: false, error });
      }
    }
    await writeDeferredStock(tx);
    return out;
  },
});

/** One push's writes, inside its transaction (or its savepoint of a store's batch). */
async function writePush(tx: AuthedContext & { pending: PendingCommit }, device: DeviceRow, mutations: Mutation[]): Promise<Answer> {
  const now = tx.clock.now();
  // The device row is the push's lock: two pushes of one device run one after the other.
  const locked = await tx.db
    .updateTable('devices')
    .set({ last_seen_at: now })
    .where('id', '=', device.id)
    .where('org_id', '=', device.org_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  let last = locked.last_seq;
  // A sale locks its store row, then stock rows. A refund, void or adjustment locks stock rows
  // only, which is fine on its own; but one earlier in this push would hold stock rows while the
  // push's sales wait for the store row that another push holds while it waits for those stock
  // rows. Such a push takes the store row first, so every push locks in the same order.
  const storeId = tx.actor.storeId;
  if (storeId && mutations.some((m) => m.type !== 'sale.create')) {
    await forUpdate(
      tx.dialect,
      tx.db.selectFrom('stores').select('id').where('id', '=', storeId).where('org_id', '=', device.org_id),
    ).execute();
  }
  const seen = await readSeen(tx, device.id, mutations);
  const results: MutationResult[] = [];
  /** This push's new results, by mutation id: each is recorded once, at the end. */
  const applied = new Map<string, { m: Mutation; r: MutationResult }>();
  // Consecutive sales are applied together as a set (applySales); anything else flushes them first,
  // so a refund later in the push sees the sale it reverses.
  let sales: Mutation[] = [];
  const flushSales = async () => {
    if (!sales.length) return;
    const done = await applySalesApart(tx, locked, sales, now);
    done.forEach((r, i) => {
      results.push(r);
      applied.set(r.id, { m: sales[i]!, r });
    });
    sales = [];
  };
  /** The first mutation of this push with each id: a later one with that id is its repeat. */
  const firstById = new Map<string, Mutation>();
  for (const m of mutations) {
    const known = answerSeen(m, seen, device.id, last);
    if (known && m.seq <= last) {
      await flushSales();
      results.push(known);
      continue;
    }
    if (m.seq !== last + 1) {
      throw new ServiceError('CONFLICT', `expected seq ${last + 1}, got ${m.seq}`, { meta: { expected_seq: last + 1 } });
    }
    // The seq is taken whatever the mutation's fate, so one bad mutation never holds up the queue.
    last = m.seq;
    // An id recorded by an earlier push, under an earlier seq (or by another device): answered, not run.
    if (known) {
      await flushSales();
      results.push(known);
      continue;
    }
    const first = firstById.get(m.id);
    if (first) {
      await flushSales();
      results.push(repeatOf(m, first, applied.get(m.id)!.r));
      continue;
    }
    firstById.set(m.id, m);
    if (m.type === 'sale.create') {
      sales.push(m);
      continue;
    }
    await flushSales();
    const r = m.type === 'sale.exchange' ? await exchangeOne(tx, locked, m, now) : await applyOne(tx, locked, m, now);
    results.push(r);
    applied.set(m.id, { m, r });
  }
  await flushSales();
  // The results and the device's seq (with the till's clock as its sales left it, sale-mutations.ts):
  // one statement on Postgres.
  await writeTogether(tx.db, [
    insertWrite(
      'sync_mutations',
      [...applied.values()].map(({ m, r }) => ({
        org_id: device.org_id,
        device_id: device.id,
        seq: m.seq,
        id: m.id,
        type: m.type,
        status: r.status === 'rejected' ? ('rejected' as const) : ('applied' as const),
        error_code: r.error?.code ?? null,
        error_message: r.error?.message ?? null,
        result: r.result || r.conflicts ? JSON.stringify({ result: r.result, conflicts: r.conflicts }) : null,
        created_at: now,
      })),
    ),
    queryWrite(
      tx.db
        .updateTable('devices')
        .set({ last_seq: last, last_sale_at: locked.last_sale_at })
        .where('id', '=', device.id)
        .where('org_id', '=', device.org_id),
    ),
  ]);
  return { results, last_applied_seq: last };
}

/** How often a device that only re-sends is marked seen (a write; retirement counts in days). */
const SEEN_EVERY_MS = 60_000;

async function applyOne(ctx: AuthedContext, device: DeviceRow, m: Mutation, now: number): Promise<MutationResult> {
  const at = Math.min(Date.parse(m.created_at), now);
  try {
    const outcome = await withSavepoint(ctx, () => runMutation(ctx, m, device, at));
    const result: MutationResult = { id: m.id, seq: m.seq, status: 'applied', ...(outcome.result ? { result: outcome.result } : {}) };
    if (outcome.conflicts?.length)
      result.conflicts = outcome.conflicts.map((c) => ({
        kind: c.kind,
        message: c.message,
        ...(c.product_id ? { product_id: c.product_id } : {}),
      }));
    return result;
  } catch (err) {
    return rejectedBy(m, err);
  }
}

/** A till's exchange: its refund and its sale together (exchange-mutation.ts), or its rejection. */
async function exchangeOne(tx: AuthedContext & { pending: PendingCommit }, device: DeviceRow, m: Mutation, now: number) {
  try {
    return await applyExchange(tx, device, m, now);
  } catch (err) {
    return rejectedBy(m, err);
  }
}

/**
 * A mutation's failure as its `rejected` answer: a broken business rule, or data the database
 * refused (a constraint, a number it cannot hold), rejects this mutation alone. Anything else (a
 * lost connection, a deadlock to retry, a bug) fails the push, which the till sends again.
 */
function rejectedBy(m: Mutation, err: unknown): MutationResult {
  const refused = err instanceof ServiceError ? err : refusalError(err);
  if (!refused) throw err;
  return { id: m.id, seq: m.seq, status: 'rejected', error: { code: refused.code, message: refused.message } };
}

/**
 * A run of sales applied as a set, in a savepoint. Should the database refuse a write of the set
 * (what one sale asked for broke a constraint the rules did not foresee), the run is applied again
 * one sale at a time, so only the sale at fault is rejected.
 */
async function applySalesApart(
  tx: AuthedContext & { pending: PendingCommit },
  device: DeviceRow,
  sales: Mutation[],
  now: number,
): Promise<MutationResult[]> {
  try {
    return await withSavepoint(tx, () => applySales(tx, device, sales, now));
  } catch (err) {
    if (!refusalError(err)) throw err;
    if (sales.length === 1) return [rejectedBy(sales[0]!, err)];
  }
  const results: MutationResult[] = [];
  for (const m of sales) {
    try {
      results.push(...(await withSavepoint(tx, () => applySales(tx, device, [m], now))));
    } catch (err) {
      results.push(rejectedBy(m, err));
    }
  }
  return results;
}
