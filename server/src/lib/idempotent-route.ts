/**
 * Idempotency-Key on every creating route (issue 18), applied by `defineRoute` to signed-in POSTs
 * with a JSON body. With a key, the route's whole handler runs in one transaction together with
 * the key's stored answer (the services' own transactions join it), so a record and its
 * replayable answer commit together or not at all; a failure rolls everything back and frees the
 * key. Same key and body later: the stored answer with `Idempotent-Replayed: true`; same key,
 * other body or path: 422 IDEMPOTENCY_MISMATCH; a retry while the first is running: 409
 * IDEMPOTENCY_IN_FLIGHT. Without a key the route runs as it always did.
 *
 * Routes that settle their key themselves (sales, payments, deliveries, expenses: the key is
 * claimed inside their own transaction) or must not store their answer opt out in defineRoute.
 */
import type { MiddlewareHandler } from 'hono';
import { isRetryableTransactionError } from '../db/dialect.js';
import { withTransaction } from '../db/transaction.js';
import type { AppEnv, AuthedContext } from './context.js';
import { ServiceError } from './errors.js';
import { claimKey, completeKey, releaseKey } from './idempotency.js';

/** Thrown inside the transaction when the handler did not succeed: undo its writes, keep its answer. */
class Unsuccessful extends Error {}

export const honourIdempotencyKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header('idempotency-key');
  const json = /^application\/json\b/i.test(c.req.header('content-type') ?? '');
  // A blank key is left to the header's validation (400), like any other bad header.
  if (!key || !json) return next();
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    // Not JSON: validation answers 400 and there is nothing to replay.
    return next();
  }
  const ctx = c.get('ctx') as AuthedContext;
  const claimed = await claimKey(ctx, { key, route: `${c.req.method} ${c.req.path}`, body });
  if ('replay' in claimed) {
    c.header('Idempotent-Replayed', 'true');
    return c.json(claimed.replay.body as object, claimed.replay.status as 200);
  }
  const claim = claimed.claim;
  if (!claim) return next();
  let ran = false;
  let stored = false;
  try {
    await withTransaction(ctx, async (tx) => {
      // A Postgres deadlock makes withTransaction run this again; a handler cannot run twice.
      if (ran)
        throw new ServiceError(
          'IDEMPOTENCY_IN_FLIGHT',
          'the request met a concurrent one and was undone; send it again with the same Idempotency-Key',
        );
      ran = true;
      c.set('ctx', tx);
      try {
        await next();
      } finally {
        c.set('ctx', ctx);
      }
      const res = c.res;
      if (c.error || res.status >= 300) throw new Unsuccessful();
      // A download (a CSV report) is kept but cannot be replayed: the key is freed below.
      if (!/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) return;
      await completeKey(tx, claim, { status: res.status as 200 | 201, body: await res.clone().json() });
      stored = true;
    });
    if (!stored) await releaseKey(ctx, claim);
  } catch (err) {
    await releaseKey(ctx, claim);
    if (err instanceof Unsuccessful) return;
    if (isRetryableTransactionError(err))
      throw new ServiceError(
        'IDEMPOTENCY_IN_FLIGHT',
        'the request met a concurrent one and was undone; send it again with the same Idempotency-Key',
      );
    throw err;
  }
};
