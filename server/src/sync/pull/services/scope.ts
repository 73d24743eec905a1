import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { type Scope, TRANSACTION_WINDOW_MS } from './entities.js';

/** The till's organisation and store, from its access token only. */
export function tillOf(ctx: AuthedContext): { orgId: string; storeId: string } {
  if (!ctx.actor.orgId) throw new NotFoundError('organisation');
  if (!ctx.actor.storeId) throw new InvalidStateError('your session has no active store; switch to a store first');
  return { orgId: ctx.actor.orgId, storeId: ctx.actor.storeId };
}

/** The set a till holds as of `now`: transactions of the last 30 days, tabs overdue by the local date. */
export function scopeAt(till: { orgId: string; storeId: string }, now: number, timezone: string, since = now - TRANSACTION_WINDOW_MS): Scope {
  return { ...till, since, today: localDate(now, timezone) };
}
