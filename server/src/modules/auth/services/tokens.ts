/**
 * Token pairs. Refresh tokens are random, stored as a keyed hash, live 30 days and are rotated on
 * every use; all tokens issued from one sign-in share a family. Presenting a refresh token that was
 * already used means it was copied: the whole family is revoked (RFC 9700 §4.14.2), with one
 * exception for flaky networks: the same token again within REFRESH_REUSE_GRACE_SECONDS, while the
 * pair it was exchanged for has never been used, is a till whose answer was lost on the way back.
 */
import { newId } from '@duka/shared';
import type { TokenPair } from '@duka/shared';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import { signToken } from '../../../lib/auth/jwt.js';
import type { ServiceContext } from '../../../lib/context.js';
import { randomToken } from '../../../lib/crypto.js';
import { ForbiddenError, UnauthenticatedError } from '../../../lib/errors.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { findUserById, permsOf } from '../../tenancy/tenancy.exports.js';
import { activeStoreIds, insertRefreshToken } from '../auth.queries.js';

/** The store a user works in: the requested one if still allowed, else their own, else the first active. */
export async function activeStoreFor(ctx: ServiceContext, user: UserRow, wanted: string | null): Promise<string | null> {
  if (!user.org_id) return null;
  const stores = await activeStoreIds(ctx.db, user.org_id);
  const ids = stores.map((s) => s.id);
  const allowed = (id: string | null) => id != null && ids.includes(id) && (user.role === 'owner' || id === user.store_id);
  if (allowed(wanted)) return wanted;
  if (allowed(user.store_id)) return user.store_id;
  return user.role === 'owner' ? (ids[0] ?? null) : null;
}

/**
 * Whether a session may only set a new password: it was signed in with the temporary password.
 * That is a password sign-in (`pwd`) while the user's password is still temporary: every path that
 * makes a password temporary (a new user, an admin's reset) signs the user out everywhere, so no
 * session signed in with another password meets it. An OTP proves the phone the temporary password
 * went to, so an OTP session is a full one. A refresh keeps the sign-in's `amr`, so it keeps the limit.
 */
export const signedInWithTemporaryPassword = (amr: readonly string[], user: Pick<UserRow, 'must_change_password'>) =>
  amr.includes('pwd') && user.must_change_password === 1;

export async function issueTokens(
  ctx: ServiceContext,
  user: UserRow,
  opts: { storeId: string | null; amr: string[]; familyId?: string; replaces?: string },
): Promise<TokenPair> {
  // Every sign-in, refresh and store switch comes through here: a suspended shop gets no tokens.
  if (user.org_id) {
    const org = await ctx.db.selectFrom('organisations').select('is_active').where('id', '=', user.org_id).executeTakeFirst();
    if (org && org.is_active !== 1) throw new ForbiddenError('this shop has been suspended; contact Duka support');
  }
  const now = ctx.clock.now();
  const familyId = opts.familyId ?? newId();
  const refresh = randomToken(32);
  await insertRefreshToken(
    ctx.db,
    {
      familyId,
      userId: user.id,
      storeId: opts.storeId,
      amr: JSON.stringify(opts.amr),
      tokenHash: ctx.keys.digest(refresh),
      expiresAt: now + ctx.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000,
      replaces: opts.replaces ?? null,
    },
    now,
  );
  const ttl = ctx.config.ACCESS_TOKEN_TTL;
  const access = await signToken(
    ctx.keys.jwt,
    'duka-api',
    {
      sub: user.id,
      org: user.org_id,
      store: opts.storeId,
      role: user.role,
      perms: permsOf(user),
      amr: opts.amr,
      sid: familyId,
      // The session's limit as issued; every request also reads whether the password is still temporary (sessions.ts).
      ...(signedInWithTemporaryPassword(opts.amr, user) ? { pwc: true } : {}),
    },
    ttl,
    now,
  );
  return { access_token: access, refresh_token: refresh, expires_in: ttl, token_type: 'Bearer' };
}

export async function revokeFamily(ctx: ServiceContext, familyId: string): Promise<void> {
  await ctx.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: ctx.clock.now() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
  afterCommit(ctx, () => ctx.realtime.revoked({ sid: familyId }));
}

export async function revokeAllForUser(ctx: ServiceContext, userId: string): Promise<void> {
  await ctx.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: ctx.clock.now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  afterCommit(ctx, () => ctx.realtime.revoked({ userId }));
}

/**
 * A used refresh token presented again: was the answer to its exchange lost? Yes when it was used
 * within the grace period and no token issued in exchange for it was ever presented. The unused
 * successor is then withdrawn and the caller gets a fresh pair in the same family; anything else
 * is a replay.
 */
async function answerLost(ctx: ServiceContext, tokenId: string, now: number): Promise<boolean> {
  const grace = ctx.config.REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (grace === 0) return false;
  const used = await ctx.db.selectFrom('refresh_tokens').select('used_at').where('id', '=', tokenId).executeTakeFirstOrThrow();
  if (used.used_at == null || now - used.used_at > grace) return false;
  const successors = await ctx.db
    .selectFrom('refresh_tokens')
    .select(['id', 'used_at', 'revoked_at'])
    .where('replaces', '=', tokenId)
    .execute();
  if (successors.some((t) => t.used_at != null)) return false;
  const pending = successors.filter((t) => t.revoked_at == null).map((t) => t.id);
  if (pending.length === 0) return false;
  const withdrawn = await ctx.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('id', 'in', pending)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(withdrawn.numUpdatedRows) !== pending.length) return false;
  ctx.log.info({ req_id: ctx.requestId, token_id: tokenId }, 'refresh token presented again within the grace period: answer re-issued');
  return true;
}

/**
 * Exchange a refresh token for a new pair. Role, permissions and store are read afresh, so a
 * permission change takes effect at the next refresh.
 */
export async function rotateRefreshToken(ctx: ServiceContext, token: string): Promise<TokenPair> {
  const hash = ctx.keys.digest(token);
  // Limited per sign-in, not per address: tills behind one router refresh as often as they need.
  // Counted before the transaction: on Postgres the limiter takes a pool connection of its own,
  // and ten refreshes each holding a connection while waiting for another one hung the pool
  // (the 500-till soak, when every till's first access token expired at once).
  const family = await ctx.db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hash).executeTakeFirst();
  if (!family) throw new UnauthenticatedError('refresh token is invalid');
  await ctx.limits.refreshByFamily(family.family_id);
  const outcome = await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const row = await tx.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row) return { error: new UnauthenticatedError('refresh token is invalid') };
    if (row.revoked_at != null) return { error: new UnauthenticatedError('refresh token has been revoked; sign in again') };
    const claimed = await tx.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if ((row.used_at != null || Number(claimed.numUpdatedRows) === 0) && !(await answerLost(tx, row.id, now))) {
      await revokeFamily(tx, row.family_id);
      tx.log.warn({ req_id: tx.requestId, user_id: row.user_id, family_id: row.family_id }, 'refresh token reuse: family revoked');
      return { error: new UnauthenticatedError('refresh token was already used; all sessions from that sign-in are signed out') };
    }
    if (row.expires_at <= now) return { error: new UnauthenticatedError('refresh token has expired; sign in again', 'SESSION_EXPIRED') };
    const user = await findUserById(tx.db, row.user_id);
    if (!user || user.is_active !== 1) {
      await revokeFamily(tx, row.family_id);
      return { error: new UnauthenticatedError('this account is no longer active') };
    }
    const storeId = await activeStoreFor(tx, user, row.store_id);
    return {
      tokens: await issueTokens(tx, user, { storeId, amr: JSON.parse(row.amr) as string[], familyId: row.family_id, replaces: row.id }),
    };
  });
  // Thrown after commit, so that a revocation sticks.
  if ('error' in outcome) throw outcome.error;
  return outcome.tokens;
}
