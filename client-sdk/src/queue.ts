/**
 * The device's mutation queue (design §4, style convention 11): a FIFO table in the replica. A till
 * action writes its local effects and its mutation in ONE local transaction, so the queue and the
 * replica never disagree. Seqs increase by one per device and belong to the device, not to whoever
 * is signed in. Acknowledged mutations are kept 7 days, so a server restored from a backup can be
 * sent them again; refused ones are kept until the app dismisses them.
 */
import { type Mutation, type MutationType, newId } from '@duka/shared';
import type { CompiledQuery, QueryResult } from 'kysely';
import { compiledOnce } from './local/compiled.js';
import type { LocalExec, LocalTrx } from './local/db.js';
import type { Undo } from './local/effects.js';
import { getMeta, nextCounter, setMeta } from './local/meta.js';
import type { QueueTable } from './local/schema.js';

/** How long acknowledged mutations are kept for a server that went back in time. */
export const ACK_RETENTION_MS = 7 * 86_400_000;

/** A mutation as the till keeps it. */
export interface QueuedMutation {
  id: string;
  seq: number;
  type: MutationType;
  created_at: string;
  payload: Record<string, unknown>;
  state: QueueTable['state'];
  error: { code: string; message: string } | null;
  result: Record<string, unknown> | null;
}

export const toQueued = (r: QueueTable): QueuedMutation => ({
  id: r.id,
  seq: r.seq,
  type: r.type,
  created_at: r.created_at,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  state: r.state,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  result: r.result ? (JSON.parse(r.result) as Record<string, unknown>) : null,
});

/**
 * Queue a mutation inside the action's local transaction; answers its id and seq. `seq` is one the
 * action already took from `last_seq` in the same transaction (a sale takes it with its receipt
 * number, in one statement); otherwise the next one is taken here.
 */
export async function enqueue(
  trx: LocalTrx,
  type: MutationType,
  payload: Record<string, unknown>,
  at: number,
  undo: Undo = {},
  seq?: number,
): Promise<{ id: string; seq: number }> {
  seq ??= await nextCounter(trx, 'last_seq');
  const { id, insert } = queuedInsert(trx, type, payload, at, undo, seq);
  await trx.executeQuery(insert);
  return { id, seq };
}

/** `enqueue`'s statement for a seq already taken, to run with the action's other writes (`runInOrder`). */
export function queuedInsert(
  trx: LocalTrx,
  type: MutationType,
  payload: Record<string, unknown>,
  at: number,
  undo: Undo,
  seq: number,
): { id: string; insert: CompiledQuery } {
  const id = newId();
  const created_at = new Date(at).toISOString();
  const values = { id, seq, type, payload: JSON.stringify(payload), created_at, undo: JSON.stringify(undo) };
  return { id, insert: insertMutation.compile(trx, values) };
}

const insertMutation = compiledOnce(['id', 'seq', 'type', 'payload', 'created_at', 'undo'], (db, v) =>
  db.insertInto('queue').values({ ...v, state: 'pending', error_code: null, error_message: null, result: null, acked_at: null }),
);

const countPending = compiledOnce([], (db) =>
  db
    .selectFrom('queue')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending'),
);

export async function pendingCount(db: LocalExec): Promise<number> {
  return pendingOf(await countPending(db, {}));
}

/** `pendingCount`'s statement, to run with an action's writes (`runInOrder`), and its answer read by `pendingOf`. */
export const pendingCounted = (db: LocalExec): CompiledQuery => countPending.compile(db, {});
export const pendingOf = (result: QueryResult<unknown>): number => Number((result.rows[0] as { n: number | bigint }).n);

export async function rejectedCount(db: LocalExec): Promise<number> {
  const row = await db
    .selectFrom('queue')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'rejected')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Forget a mutation the server refused, once someone has dealt with it (e.g. re-entered the sale).
 * Only rejected ones: a pending mutation is the shop's money on its way and never dropped.
 */
export async function dismissRejected(db: LocalExec, id: string): Promise<boolean> {
  const res = await db.deleteFrom('queue').where('id', '=', id).where('state', '=', 'rejected').executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The next pending mutations in seq order, as they go on the wire. */
export async function nextBatch(db: LocalExec, limit: number): Promise<Mutation[]> {
  const rows = await db.selectFrom('queue').selectAll().where('state', '=', 'pending').orderBy('seq').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    type: r.type,
    created_at: r.created_at,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
  }));
}

/**
 * Make the seqs from `from` on contiguous again, so that a push can start there: everything the
 * till still holds at or after `from` that the server may not have (acknowledged ones when the
 * server lost them, and the pending ones) in seq order. When they already run on from `from`
 * nothing moves; otherwise they are renumbered from `from` (ids keep each mutation's identity:
 * the server never applies one id twice).
 */
export async function resendFrom(trx: LocalTrx, from: number): Promise<number> {
  const held = await trx
    .selectFrom('queue')
    .select(['id', 'seq'])
    .where((eb) => eb.or([eb('state', '=', 'pending'), eb.and([eb('state', 'in', ['applied', 'duplicate']), eb('seq', '>=', from)])]))
    .orderBy('seq')
    .execute();
  await trx
    .updateTable('queue')
    .set({ state: 'pending', acked_at: null })
    .where('id', 'in', held.length ? held.map((h) => h.id) : [''])
    .execute();
  const contiguous = held.every((h, i) => h.seq === from + i);
  if (!contiguous) {
    for (const [i, h] of held.entries())
      await trx
        .updateTable('queue')
        .set({ seq: from + i })
        .where('id', '=', h.id)
        .execute();
  }
  const last = from + held.length - 1;
  await setMeta(trx, 'last_seq', Math.max(last, from - 1));
  await setMeta(trx, 'last_acked_seq', from - 1);
  return held.length;
}

/** Drop acknowledged mutations older than the retention (never pending or refused ones). */
export async function pruneAcked(db: LocalExec, now: number): Promise<void> {
  await db
    .deleteFrom('queue')
    .where('state', 'in', ['applied', 'duplicate'])
    .where('acked_at', '<', now - ACK_RETENTION_MS)
    .execute();
}

export async function lastAckedSeq(db: LocalExec): Promise<number> {
  return (await getMeta(db, 'last_acked_seq')) ?? 0;
}
