/**
 * Pushing the queue: pending mutations in seq order, at most `pushBatchSize` a request, each batch's
 * answers recorded in one local transaction. Applied sales get their store number; conflicts are
 * kept and emitted; a rejected mutation is kept as rejected, its local effects undone, and emitted,
 * and the queue moves on. What the server says about the queue itself is repaired here: a seq it
 * does not expect (409 `expected_seq`), a device it no longer knows (404), a batch too large (413),
 * a mutation it cannot even read (400 on `mutations.N`). Network and server errors are thrown for
 * the engine to retry later; sales in a batch that reached no server were rung up without one
 * (unreached.ts).
 */
import type { Mutation, MutationResult, PushResponse } from '@duka/shared';
import { NetworkError } from '../errors.js';
import { DukaApiError } from '../http/errors.js';
import type { NumberedReceipt, RejectedMutation, TillConflict } from '../events.js';
import type { LocalTrx } from '../local/db.js';
import { runUndo, type Undo } from '../local/effects.js';
import { getMeta, setMeta } from '../local/meta.js';
import { nextBatch, pendingCount, resendFrom } from '../queue.js';
import type { SyncCtx } from './context.js';
import { registerDevice, serverWentBack } from './device.js';
import { heardProtocol, protocolNeeded, serverProtocol } from './protocol.js';
import { unreached } from './unreached.js';

export interface PushOutcome {
  pushed: number;
  numbered: NumberedReceipt[];
}

/** Repairs of the queue one push may make before giving up until the next sync. */
const MAX_REPAIRS = 5;

export async function pushQueue(ctx: SyncCtx): Promise<PushOutcome> {
  const out: PushOutcome = { pushed: 0, numbered: [] };
  let size = ctx.pushBatchSize;
  let repairs = 0;
  for (;;) {
    const batch = await pushable(ctx, await nextBatch(ctx.db, size));
    if (!batch.length) return out;
    let res: PushResponse;
    const sentAt = ctx.now();
    try {
      res = await ctx.auth.authed(async ({ connector }, token, signal) => {
        try {
          return await connector.push(token, { device_id: ctx.deviceId, mutations: batch }, signal);
        } finally {
          await heardProtocol(ctx.db, connector);
        }
      });
      ctx.serverTime(res.server_time, sentAt);
    } catch (err) {
      if (err instanceof NetworkError) await unreached(ctx.db, batch, ctx.pushedSince());
      if (!(err instanceof DukaApiError) || repairs++ >= MAX_REPAIRS || !(await repair(ctx, err, batch))) throw err;
      if (err.status === 413) size = Math.max(1, Math.floor(size / 2));
      continue;
    }
    const recorded = await record(ctx, batch, res);
    out.pushed += recorded.answered;
    out.numbered.push(...recorded.numbered);
    recorded.conflicts.forEach((c) => ctx.events.emit('conflict', c));
    recorded.rejected.forEach((r) => ctx.events.emit('rejected', r));
  }
}

/**
 * The batch up to the first mutation the server's protocol cannot take (a decimal, pack, scale-label
 * or split sale queued before the server was found older, issue 51): it and the ones after it wait,
 * in seq order, for a server that speaks it (kept in `held_for_server`, told by a `held` event).
 */
async function pushable(ctx: SyncCtx, batch: Mutation[]): Promise<Mutation[]> {
  const speaks = (await serverProtocol(ctx.db)) ?? 1;
  const first = batch.findIndex((m) => protocolNeeded(m) > speaks);
  // The batch starts at the first pending mutation: the ones from `first` on wait.
  const held = first < 0 ? 0 : (await pendingCount(ctx.db)) - first;
  if (((await getMeta(ctx.db, 'held_for_server')) ?? 0) !== held) await setMeta(ctx.db, 'held_for_server', held);
  if (first < 0) return batch;
  ctx.events.emit('held', { count: held, server_protocol: speaks, needed: protocolNeeded(batch[first]!) });
  return batch.slice(0, first);
}

/** Fix what the server said about the queue; answers whether pushing again can help. */
async function repair(ctx: SyncCtx, err: DukaApiError, batch: Mutation[]): Promise<boolean> {
  if (err.status === 413) return batch.length > 1;
  if (err.status === 404) {
    // The server does not know this device (retired after a year unseen): register it again.
    await registerDevice(ctx);
    return true;
  }
  const expected = err.meta.expected_seq;
  if (err.status === 409 && typeof expected === 'number') {
    if (await serverWentBack(ctx, expected)) return true;
    // Not a restore, yet a gap (e.g. a mutation dropped locally): start the queue where the server is.
    await ctx.db.transaction().execute((trx) => resendFrom(trx, expected));
    return true;
  }
  const field = err.errors.find((e) => e.field?.startsWith('mutations.'))?.field;
  const index = field ? Number(field.split('.')[1]) : NaN;
  if (err.status === 400 && Number.isInteger(index) && batch[index]) {
    const bad = batch[index];
    if (field!.endsWith('.seq')) {
      await ctx.db.transaction().execute((trx) => resendFrom(trx, batch[0]!.seq));
      return true;
    }
    // The server cannot read this mutation at all: it will never take it. Keep it as rejected and
    // close its seq gap, so the rest of the queue goes on.
    const rejected = await ctx.db.transaction().execute(async (trx) => {
      const r = await reject(trx, bad, { code: err.code, message: `${field}: ${err.message}` }, ctx.now());
      await resendFrom(trx, bad.seq);
      return r;
    });
    if (rejected) ctx.events.emit('rejected', rejected);
    return true;
  }
  return false;
}

interface Recorded {
  answered: number;
  numbered: NumberedReceipt[];
  conflicts: TillConflict[];
  rejected: RejectedMutation[];
}

async function record(ctx: SyncCtx, batch: Mutation[], res: PushResponse): Promise<Recorded> {
  const byId = new Map(batch.map((m) => [m.id, m]));
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const out: Recorded = { answered: 0, numbered: [], conflicts: [], rejected: [] };
    for (const r of res.results) {
      const m = byId.get(r.id);
      if (!m) continue;
      out.answered++;
      // A replayed rejection comes back as a duplicate carrying its error.
      if (r.status === 'rejected' || r.error) {
        const rej = await reject(trx, m, r.error ?? { code: 'INTERNAL', message: 'rejected' }, now);
        if (rej) out.rejected.push(rej);
        continue;
      }
      await trx
        .updateTable('queue')
        .set({ state: r.status, acked_at: now, result: r.result ? JSON.stringify(r.result) : null })
        .where('id', '=', m.id)
        .execute();
      if (m.type === 'sale.create' || m.type === 'sale.exchange') {
        // An exchange's new sale is numbered as a sale is (its payload's `sale`).
        const n = await numberSale(trx, m.type === 'sale.exchange' ? { ...m, payload: m.payload.sale as Mutation['payload'] } : m, r);
        if (n) out.numbered.push(n);
      }
      out.conflicts.push(...(await keepConflicts(trx, m, r, now)));
    }
    const acked = Math.max((await getMeta(trx, 'last_acked_seq')) ?? 0, ...res.results.map((r) => r.seq));
    await setMeta(trx, 'last_acked_seq', acked);
    return out;
  });
}

/** Mark a mutation rejected and undo its local effects; answers the event (null if it was not pending). */
async function reject(trx: LocalTrx, m: Mutation, error: { code: string; message: string }, now: number): Promise<RejectedMutation | null> {
  const row = await trx.selectFrom('queue').select(['undo', 'state']).where('id', '=', m.id).executeTakeFirst();
  if (!row || row.state !== 'pending') return null;
  await trx
    .updateTable('queue')
    .set({ state: 'rejected', error_code: error.code, error_message: error.message, acked_at: now })
    .where('id', '=', m.id)
    .execute();
  if (row.undo) await runUndo(trx, JSON.parse(row.undo) as Undo);
  return { mutation_id: m.id, seq: m.seq, type: m.type, code: error.code, message: error.message, payload: m.payload };
}

/** Give an applied sale its server number and receipt number. */
async function numberSale(trx: LocalTrx, m: Mutation, r: MutationResult): Promise<NumberedReceipt | null> {
  const result = r.result as { transaction_id?: string; number?: number; receipt_number?: string; status?: string } | undefined;
  const saleId = String(m.payload.id);
  if (typeof result?.number !== 'number' || typeof result.receipt_number !== 'string') {
    await trx.updateTable('transactions').set({ sync_state: 'synced' }).where('id', '=', saleId).execute();
    return null;
  }
  const row = await trx.selectFrom('transactions').select('data').where('id', '=', saleId).executeTakeFirst();
  if (row) {
    const data = { ...JSON.parse(row.data), number: result.number, receipt_number: result.receipt_number, sync_state: 'synced' };
    await trx
      .updateTable('transactions')
      .set({ number: result.number, receipt_number: result.receipt_number, sync_state: 'synced', data: JSON.stringify(data) })
      .where('id', '=', saleId)
      .execute();
  }
  return {
    transaction_id: result.transaction_id ?? saleId,
    client_receipt_number: String(m.payload.client_receipt_number),
    number: result.number,
    receipt_number: result.receipt_number,
  };
}

/** Keep the conflicts the server noted (once, even when a replay repeats them); answers the new ones. */
async function keepConflicts(trx: LocalTrx, m: Mutation, r: MutationResult, now: number): Promise<TillConflict[]> {
  const fresh: TillConflict[] = [];
  const transactionId = typeof r.result?.transaction_id === 'string' ? r.result.transaction_id : null;
  for (const [i, c] of (r.conflicts ?? []).entries()) {
    const row = {
      id: `${m.id}:${i}`,
      mutation_id: m.id,
      seq: m.seq,
      type: m.type,
      transaction_id: transactionId,
      kind: c.kind,
      message: c.message,
      product_id: c.product_id ?? null,
      created_at: new Date(now).toISOString(),
    };
    const inserted = await trx
      .insertInto('conflicts')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) fresh.push({ ...row, type: m.type, kind: c.kind });
  }
  return fresh;
}
