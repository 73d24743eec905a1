/** Authenticator enrolment for platform administrators: setup, confirm with a code, disable. */
import { checkTotp, newTotpSecret, totpUri } from '../../../lib/auth/totp.js';
import type { AuthedContext } from '../../../lib/context.js';
import { verifySecret } from '../../../lib/crypto.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { recordAudit } from '../../../lib/audit.js';
import { findUserById } from '../../tenancy/tenancy.exports.js';
import { enableTotp } from '../accounts.queries.js';

async function me(ctx: AuthedContext) {
  const user = await findUserById(ctx.db, ctx.actor.userId);
  if (!user) throw new NotFoundError('user');
  return user;
}

export async function totpStatus(ctx: AuthedContext) {
  const user = await me(ctx);
  return { enabled: user.totp_enabled === 1, pending: user.totp_pending_enc != null };
}

export async function setupTotp(ctx: AuthedContext) {
  const user = await me(ctx);
  if (user.totp_enabled === 1) throw new InvalidStateError('authenticator is already enabled; disable it first');
  const secret = newTotpSecret();
  await ctx.db
    .updateTable('users')
    .set({ totp_pending_enc: ctx.keys.encrypt(secret), updated_at: ctx.clock.now() })
    .where('id', '=', user.id)
    .execute();
  const account = user.email ?? user.phone ?? user.id;
  return { secret, otpauth_uri: totpUri(secret, account), issuer: 'Duka', account };
}

export async function confirmTotp(ctx: AuthedContext, code: string) {
  const user = await me(ctx);
  if (!user.totp_pending_enc) throw new InvalidStateError('start with /accounts/mfa/totp/setup');
  const secret = ctx.keys.decrypt(user.totp_pending_enc);
  const step = checkTotp(secret, code, ctx.clock.now(), null);
  if (step === null) throw new ValidationError('code', 'is wrong; check the authenticator app’s clock');
  await enableTotp(ctx.db, user.id, user.totp_pending_enc, step, ctx.clock.now());
  await recordAudit(ctx, { action: 'mfa.enable', description: 'Enabled authenticator sign-in' });
  return { enabled: true, pending: false };
}

export async function disableTotp(ctx: AuthedContext, password: string, code: string) {
  const user = await me(ctx);
  if (user.totp_enabled !== 1 || !user.totp_secret_enc) throw new InvalidStateError('authenticator is not enabled');
  if (!(await verifySecret(password, user.password_hash))) throw new ValidationError('password', 'is wrong');
  if (checkTotp(ctx.keys.decrypt(user.totp_secret_enc), code, ctx.clock.now(), user.totp_last_step) === null) {
    throw new ValidationError('code', 'is wrong or already used');
  }
  await ctx.db
    .updateTable('users')
    .set({ totp_secret_enc: null, totp_pending_enc: null, totp_enabled: 0, totp_last_step: null, updated_at: ctx.clock.now() })
    .where('id', '=', user.id)
    .execute();
  await recordAudit(ctx, { action: 'mfa.disable', description: 'Disabled authenticator sign-in' });
  return { enabled: false, pending: false };
}
