/**
 * Bearer authentication and the access levels of the contract: Bearer (any signed-in user),
 * Owner, Admin (platform administrator whose token was issued after an MFA check).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, AuthedContext, ServiceContext } from '../context.js';
import { UnauthenticatedError } from '../errors.js';
import { requireAdmin, requireRole, requireSettledPassword } from './authorize.js';
import { actorFromClaims, verifyToken } from './jwt.js';
import { rateLimitHeaders } from '../rate-limit.js';

/**
 * `signing-out`: a valid token whose session may already be signed out (logout answers success
 * every time, so a retried logout whose first answer was lost is not a 401).
 * `password-change`: any signed-in user, a session signed in with a temporary password included
 * (PATCH /accounts/me, where it sets its new password); every other level refuses such a session.
 */
export type Access = 'public' | 'bearer' | 'password-change' | 'signing-out' | 'owner' | 'admin' | 'admin-enrolment';

export function bearerToken(header: string | undefined): string | null {
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m ? m[1]! : null;
}

/** Verify an access token and return the context with its actor. */
export async function authenticate(ctx: ServiceContext, token: string | null): Promise<AuthedContext> {
  if (!token) throw new UnauthenticatedError('send an access token as "Authorization: Bearer <token>"');
  const claims = await verifyToken(ctx.keys.jwt, 'duka-api', token, ctx.clock.now());
  return { ...ctx, actor: actorFromClaims(claims) };
}

function assertAccess(ctx: AuthedContext, access: Access): void {
  if (access === 'owner') requireRole(ctx, 'owner');
  if (access === 'admin-enrolment') requireRole(ctx, 'admin');
  if (access === 'admin') requireAdmin(ctx);
}

export function requireAccess(access: Exclude<Access, 'public'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ctx = await authenticate(c.get('ctx'), bearerToken(c.req.header('authorization')));
    if (access !== 'signing-out') {
      // The user as the database has them now: a permission taken away applies to this request.
      ctx.actor = await ctx.sessions.current(ctx.actor);
      if (access !== 'password-change') requireSettledPassword(ctx.actor);
    }
    const limit = await ctx.limits.user(ctx.actor.userId);
    assertAccess(ctx, access);
    // Set before the handler answers, so they join its response's own headers.
    for (const [name, value] of Object.entries(rateLimitHeaders(limit))) c.header(name, value);
    c.set('ctx', ctx);
    await next();
  };
}
