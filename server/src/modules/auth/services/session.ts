/** Logout and email confirmation. */
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { recordAudit } from '../../../lib/audit.js';
import { signToken, verifyToken } from '../../../lib/auth/jwt.js';
import { BusinessRuleError } from '../../../lib/errors.js';
import { findUserById } from '../../tenancy/tenancy.exports.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { revokeFamily } from './tokens.js';
import { publicOrigin } from '../../../env.js';

/** Revokes the session of the access token (and of a refresh token given in the body, if it is the caller's). */
export async function logout(ctx: AuthedContext, refreshToken?: string): Promise<void> {
  await revokeFamily(ctx, ctx.actor.sid);
  if (refreshToken) {
    const row = await ctx.db
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id'])
      .where('token_hash', '=', ctx.keys.digest(refreshToken))
      .executeTakeFirst();
    if (row && row.user_id === ctx.actor.userId) await revokeFamily(ctx, row.family_id);
  }
  await recordAudit(ctx, { action: 'auth.logout', description: 'Signed out' });
}

const CONFIRM_TTL_SEC = 7 * 86_400;

export function publicBaseUrl(ctx: ServiceContext): string {
  return publicOrigin(ctx.config) + ctx.config.BASE_PATH;
}

/** Welcome and confirmation email with a link valid for 7 days. */
export async function sendConfirmationEmail(ctx: ServiceContext, user: UserRow, welcome: boolean): Promise<void> {
  if (!user.email) return;
  const token = await signToken(ctx.keys.jwt, 'duka-email', { sub: user.id, email: user.email }, CONFIRM_TTL_SEC, ctx.clock.now());
  const link = `${publicBaseUrl(ctx)}/auth/confirm-email?token=${encodeURIComponent(token)}`;
  const greeting = welcome ? `Karibu Duka, ${user.first_name}! Your shop is ready to sell.\n\n` : `Hello ${user.first_name},\n\n`;
  await ctx.messenger.send(ctx, {
    channel: 'email',
    to: user.email,
    subject: welcome ? 'Welcome to Duka: confirm your email' : 'Confirm your email for Duka',
    body: `${greeting}Confirm your email address by opening this link within 7 days:\n${link}\n`,
    orgId: user.org_id,
  });
}

export async function resendConfirmation(ctx: AuthedContext): Promise<string> {
  const user = await findUserById(ctx.db, ctx.actor.userId);
  if (!user?.email) throw new BusinessRuleError('add an email address to your profile first', 'BUSINESS_RULE', 'email');
  if (user.email_verified_at != null) return 'your email address is already confirmed';
  await sendConfirmationEmail(ctx, user, false);
  return 'confirmation email sent';
}

/** Where to send the browser: `{SITE_URL}/login?verified=1`, or `verified=0` for a bad or stale link. */
export async function confirmEmail(ctx: ServiceContext, token: string): Promise<string> {
  const base = `${ctx.config.SITE_URL}/login`;
  try {
    const claims = await verifyToken(ctx.keys.jwt, 'duka-email', token, ctx.clock.now());
    const user = await findUserById(ctx.db, String(claims.sub));
    if (!user || user.email !== claims.email) return `${base}?verified=0`;
    if (user.email_verified_at == null) {
      await ctx.db.updateTable('users').set({ email_verified_at: ctx.clock.now() }).where('id', '=', user.id).execute();
    }
    return `${base}?verified=1`;
  } catch {
    return `${base}?verified=0`;
  }
}
