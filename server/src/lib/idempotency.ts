/**
 * Idempotency-Key for POSTs that create money records (design §3). The key is claimed first
 * (`in_flight`, visible to a concurrent retry, which gets 409), then the work runs and the key's
 * stored answer is written in the SAME transaction as the work, so a sale and its replayable
 * answer commit together or not at all. Same key and body later: the stored answer is replayed;
 * same key, other body: 422. A claim left by a crash is taken over after a minute. The stored
 * answer is sealed (below).
 *
 * The three steps are exported for online sales, whose work runs in a transaction shared with
 * other requests' sales (sell-online.ts); every other route uses `withIdempotency`.
 */
import { createHash } from 'node:crypto';
import { withTransaction } from '../db/transaction.js';
import type { AuthedContext, Deps, ServiceContext } from './context.js';
import { ServiceError } from './errors.js';

const ABANDONED_MS = 60_000;

export interface IdempotentAnswer {
  status: 200 | 201;
  body: unknown;
  replayed: boolean;
}

export interface IdempotencyRequest {
  key: string | undefined;
  route: string;
  body: unknown;
}

/** A key this request holds: its answer is stored with `completeKey` or the key freed with `releaseKey`. */
export interface KeyClaim {
  userId: string;
  key: string;
}

const hashOf = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/** Claim the request's key: a claim to complete, the stored answer of an earlier request, or nothing without a key. */
export async function claimKey(
  ctx: AuthedContext,
  request: IdempotencyRequest,
): Promise<{ claim: KeyClaim | null } | { replay: IdempotentAnswer }> {
  if (!request.key) return { claim: null };
  if (request.key.length > 255) throw new ServiceError('VALIDATION_ERROR', 'Idempotency-Key is longer than 255 characters');
  const userId = ctx.actor.userId;
  const hash = hashOf(request.body);
  const now = ctx.clock.now();
  const claimed = await ctx.db
    .insertInto('idempotency_keys')
    .values({
      user_id: userId,
      key: request.key,
      route: request.route,
      request_hash: hash,
      status: 'in_flight',
      response_status: null,
      response_body: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) {
    const seen = await ctx.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', request.key)
      .executeTakeFirstOrThrow();
    if (seen.route !== request.route || seen.request_hash !== hash) {
      throw new ServiceError('IDEMPOTENCY_MISMATCH', 'this Idempotency-Key was used with a different request');
    }
    if (seen.status === 'done')
      return { replay: { status: seen.response_status as 200 | 201, body: openAnswer(ctx, seen.response_body!), replayed: true } };
    if (now - seen.created_at < ABANDONED_MS)
      throw new ServiceError('IDEMPOTENCY_IN_FLIGHT', 'a request with this Idempotency-Key is still being processed; retry shortly');
    const takeover = await ctx.db
      .updateTable('idempotency_keys')
      .set({ created_at: now })
      .where('user_id', '=', userId)
      .where('key', '=', request.key)
      .where('status', '=', 'in_flight')
      .where('created_at', '=', seen.created_at)
      .executeTakeFirst();
    if (Number(takeover.numUpdatedRows) === 0)
      throw new ServiceError('IDEMPOTENCY_IN_FLIGHT', 'a request with this Idempotency-Key is still being processed; retry shortly');
  }
  return { claim: { userId, key: request.key } };
}

/**
 * A stored answer is sealed with the server key (AES-256-GCM): answers may carry secrets (a
 * collection account's callback URL and its token) and personal data, and the table holds them for
 * a week. Answers stored in clear before sealing (JSON, never starting `v1.`) still replay.
 */
const openAnswer = (ctx: ServiceContext, stored: string): unknown =>
  JSON.parse(stored.startsWith('v1.') ? ctx.keys.decrypt(stored) : stored);

/** Store the answer under the claimed key, sealed, inside the work's transaction. */
export async function completeKey(tx: ServiceContext, claim: KeyClaim, result: { status: 200 | 201; body: unknown }): Promise<void> {
  await tx.db
    .updateTable('idempotency_keys')
    .set({ status: 'done', response_status: result.status, response_body: tx.keys.encrypt(JSON.stringify(result.body)) })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .execute();
}

/**
 * Rewrite an organisation's stored answers that `rewrite` changes, sealed again: a personal-data
 * erasure must reach into the sealed replays too, which no search of the column can see.
 */
export async function rewriteStoredAnswers(tx: ServiceContext, orgId: string, rewrite: (json: string) => string): Promise<number> {
  const rows = await tx.db
    .selectFrom('idempotency_keys')
    .select(['user_id', 'key', 'response_body'])
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('org_id', '=', orgId))
    .where('response_body', 'is not', null)
    .execute();
  let rewritten = 0;
  for (const row of rows) {
    const json = JSON.stringify(openAnswer(tx, row.response_body as string));
    const next = rewrite(json);
    if (next === json) continue;
    await tx.db
      .updateTable('idempotency_keys')
      .set({ response_body: tx.keys.encrypt(next) })
      .where('user_id', '=', row.user_id)
      .where('key', '=', row.key)
      .execute();
    rewritten++;
  }
  return rewritten;
}

/** The work failed and wrote nothing: free the key so the client may retry with it. */
export async function releaseKey(ctx: ServiceContext, claim: KeyClaim): Promise<void> {
  await ctx.db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('status', '=', 'in_flight')
    .execute();
}

export async function withIdempotency(
  ctx: AuthedContext,
  request: IdempotencyRequest,
  work: (tx: AuthedContext) => Promise<{ status: 200 | 201; body: unknown }>,
): Promise<IdempotentAnswer> {
  const claimed = await claimKey(ctx, request);
  if ('replay' in claimed) return claimed.replay;
  const { claim } = claimed;
  try {
    const out = await withTransaction(ctx, async (tx) => {
      const result = await work(tx);
      if (claim) await completeKey(tx, claim, result);
      return result;
    });
    return { ...out, replayed: false };
  } catch (err) {
    if (claim) await releaseKey(ctx, claim);
    throw err;
  }
}

const PRUNE_BATCH = 500;

/**
 * Forget keys older than IDEMPOTENCY_RETENTION_HOURS (a week): the table would otherwise grow by
 * a row for every keyed request for ever. A batch at a time through `transact`, so on SQLite the
 * event loop gets a turn between batches. Answers how many were removed.
 */
export async function pruneIdempotencyKeys(deps: Pick<Deps, 'transact' | 'clock' | 'config' | 'log'>): Promise<number> {
  const cutoff = deps.clock.now() - deps.config.IDEMPOTENCY_RETENTION_HOURS * 3_600_000;
  let removed = 0;
  for (;;) {
    const n = await deps.transact(async (trx) => {
      const old = await trx
        .selectFrom('idempotency_keys')
        .select(['user_id', 'key'])
        .where('created_at', '<', cutoff)
        .limit(PRUNE_BATCH)
        .execute();
      for (const o of old) await trx.deleteFrom('idempotency_keys').where('user_id', '=', o.user_id).where('key', '=', o.key).execute();
      return old.length;
    });
    removed += n;
    if (n < PRUNE_BATCH) break;
  }
  if (removed) deps.log.info({ removed }, 'idempotency keys pruned');
  return removed;
}
