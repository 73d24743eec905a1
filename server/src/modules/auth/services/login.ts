/**
 * Password sign-in, its failures counted and locked by sign-in-guard.ts (per address and account
 * name, with a cap per account name), and the TOTP second step for enrolled platform administrators.
 */
import type { LoginInput, LoginResult, MfaVerifyInput, Role } from '@duka/shared';
import { recordAudit } from '../../../lib/audit.js';
import { signToken, verifyToken } from '../../../lib/auth/jwt.js';
import { checkTotp } from '../../../lib/auth/totp.js';
import type { ServiceContext } from '../../../lib/context.js';
import { DUMMY_HASH, verifySecret } from '../../../lib/crypto.js';
import { ForbiddenError, UnauthenticatedError } from '../../../lib/errors.js';
import { findUserById, findUserByIdentifier } from '../../tenancy/tenancy.exports.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { beginPasswordTry, passwordFailed, passwordRight } from './sign-in-guard.js';
import { activeStoreFor, issueTokens, signedInWithTemporaryPassword } from './tokens.js';

export { LOCKOUT_MS, MAX_FAILED_LOGINS } from './sign-in-guard.js';
const MFA_TTL_SEC = 300;

async function signedIn(ctx: ServiceContext, user: UserRow, amr: string[]): Promise<LoginResult> {
  const now = ctx.clock.now();
  await ctx.db.updateTable('users').set({ failed_logins: 0, locked_until: null, last_login_at: now }).where('id', '=', user.id).execute();
  const storeId = await activeStoreFor(ctx, user, user.store_id);
  const tokens = await issueTokens(ctx, user, { storeId, amr });
  await recordAudit(ctx, { action: 'auth.login', description: 'Signed in', userId: user.id, orgId: user.org_id, storeId });
  const temporary = signedInWithTemporaryPassword(amr, user) ? { password_change_required: true as const } : {};
  return {
    ...tokens,
    user: { id: user.id, first_name: user.first_name, last_name: user.last_name, email: user.email, role: user.role as Role, ...temporary },
  };
}

/** `address`: the caller's, as client-ip.ts reads it. A known and an unknown account name go through the same steps. */
export async function login(ctx: ServiceContext, input: LoginInput, address: string): Promise<LoginResult> {
  const attempt = await beginPasswordTry(ctx, address, input.identifier);
  const user = await findUserByIdentifier(ctx.db, input.identifier);
  const right = await verifySecret(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !right) return passwordFailed(ctx, attempt, user);
  await passwordRight(ctx, attempt, user);
  if (user.is_active !== 1) throw new ForbiddenError('this account has been deactivated; ask the shop owner');
  const now = ctx.clock.now();
  if (user.role === 'admin' && user.totp_enabled === 1) {
    const mfa_token = await signToken(ctx.keys.jwt, 'duka-mfa', { sub: user.id }, MFA_TTL_SEC, now);
    return { mfa_required: true, mfa_token, expires_in: MFA_TTL_SEC };
  }
  return signedIn(ctx, user, ['pwd']);
}

/** Second step for administrators: the challenge from login plus a current authenticator code. */
export async function verifyMfaLogin(ctx: ServiceContext, input: MfaVerifyInput): Promise<LoginResult> {
  const claims = await verifyToken(ctx.keys.jwt, 'duka-mfa', input.mfa_token, ctx.clock.now());
  const user = await findUserById(ctx.db, String(claims.sub));
  if (!user || user.is_active !== 1 || user.totp_enabled !== 1 || !user.totp_secret_enc)
    throw new UnauthenticatedError('MFA challenge is invalid');
  await ctx.limits.authByIdentifier(`mfa:${user.id}`);
  const step = checkTotp(ctx.keys.decrypt(user.totp_secret_enc), input.code, ctx.clock.now(), user.totp_last_step);
  if (step === null) throw new UnauthenticatedError('authenticator code is wrong or already used', 'INVALID_CREDENTIALS');
  // Claim the step atomically, so that two sign-ins racing with one code cannot both pass.
  const claimed = await ctx.db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0)
    throw new UnauthenticatedError('authenticator code is wrong or already used', 'INVALID_CREDENTIALS');
  return signedIn(ctx, user, ['pwd', 'mfa']);
}
