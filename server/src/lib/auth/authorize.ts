/**
 * Who may run a verb, checked inside the verb: a sync mutator, an admin acting as an organisation
 * or an agent tool reaches the verb without its route, so the route's access level is only a
 * second line. The route middleware applies the same functions, so the two never disagree.
 *
 * The rules:
 * - Scope comes from the access token only: the organisation and the active store are the actor's,
 *   never an id from the request.
 * - A verb needs an actor. Jobs and event subscribers run as the server (actor null) and act on
 *   rows through queries and their own helpers, never through a verb.
 * - The owner holds every permission; anyone else holds the ones their flags grant, as the
 *   database has them now (the session gate, sessions.ts, replaces the token's role and
 *   permissions with the user's current ones on every request). A platform admin acting as an
 *   organisation (`asOrg`) is its owner for that call, so passes both.
 * - What moves money or stock out of the books (write-offs, credit limits, prices, stock, removing
 *   customers, products or suppliers, marking deliveries paid) is a `Power` (shared/staff/powers.ts),
 *   checked with `requirePower`; the till applies the same rule offline.
 */
import { checkPower, holdsPermission, PERMISSION_FLAG, PERMISSION_REFUSAL, type Permission, type Power } from '@duka/shared';
import type { Actor, AuthedContext } from '../context.js';
import { ForbiddenError, InvalidStateError, NotFoundError, ServiceError } from '../errors.js';

/** The caller's organisation; an account without one (a platform admin) finds no shop data. */
export function requireOrg(ctx: AuthedContext): string {
  if (!ctx.actor.orgId) throw new NotFoundError('organisation');
  return ctx.actor.orgId;
}

/** The caller's organisation and active store, where what it sells, receives and spends is booked. */
export function requireStore(ctx: AuthedContext): { orgId: string; storeId: string } {
  const orgId = requireOrg(ctx);
  if (!ctx.actor.storeId) throw new InvalidStateError('your session has no active store; switch to a store first');
  return { orgId, storeId: ctx.actor.storeId };
}

const WHO: Record<Actor['role'], string> = {
  owner: 'the shop owner',
  manager: 'managers',
  staff: 'staff',
  admin: 'platform administrators',
};

export function requireRole(ctx: AuthedContext, ...roles: Array<Actor['role']>): void {
  if (!roles.includes(ctx.actor.role)) throw new ForbiddenError(`only ${roles.map((r) => WHO[r]).join(' or ')} can do this`);
}

/** A platform administrator who signed in with an authenticator code. */
export function requireAdmin(ctx: AuthedContext): void {
  requireRole(ctx, 'admin');
  if (!ctx.actor.amr.includes('mfa')) throw new ForbiddenError('sign in with your authenticator code to use admin routes');
}

export const hasPermission = (actor: Actor, perm: Permission): boolean => holdsPermission(actor, perm);

/** 403 naming the permission (and the flag that grants it) in `meta`. */
const missing = (message: string, perm: Permission) => new ForbiddenError(message, { permission: perm, flag: PERMISSION_FLAG[perm] });

export function requirePermission(ctx: AuthedContext, perm: Permission): void {
  if (!hasPermission(ctx.actor, perm)) throw missing(PERMISSION_REFUSAL[perm], perm);
}

/** A power of the cashier rules (issue 18): 403 naming the permission it needs. */
export function requirePower(ctx: AuthedContext, power: Power): void {
  const breach = checkPower(power, ctx.actor);
  if (breach) throw missing(breach.message, breach.permission);
}

/**
 * A session signed in with a temporary password may only set a new one: every other route, the
 * websocket and every verb answer 403 PASSWORD_CHANGE_REQUIRED until it has.
 */
export function requireSettledPassword(actor: Actor): void {
  if (actor.passwordChangeRequired) {
    throw new ServiceError(
      'PASSWORD_CHANGE_REQUIRED',
      'you signed in with a temporary password; set a new password first (PATCH /accounts/me with password)',
    );
  }
}
