/** Forgotten passwords: a reset code by SMS (or email), then a new password. Answers never reveal whether an account exists. */
import type { ResetPasswordInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { ServiceContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { UnauthenticatedError } from '../../../lib/errors.js';
import { findUserByIdentifier } from '../../accounts/accounts.queries.js';
import { checkOtp, issueOtpUnlessRecent } from './otp.js';
import { revokeAllForUser } from './tokens.js';

export const FORGOT_MESSAGE = 'If an account matches, a reset code has been sent to its phone or email.';

export async function forgotPassword(ctx: ServiceContext, identifier: string): Promise<void> {
  await ctx.limits.authByIdentifier(identifier);
  const user = await findUserByIdentifier(ctx.db, identifier);
  if (user && user.is_active === 1) await withTransaction(ctx, (tx) => issueOtpUnlessRecent(tx, user, 'reset'));
}

/** Sets the new password, lifts any lockout and signs out every session of the account. */
export async function resetPassword(ctx: ServiceContext, input: ResetPasswordInput): Promise<void> {
  await ctx.limits.authByIdentifier(input.identifier);
  const user = await findUserByIdentifier(ctx.db, input.identifier);
  if (!user || user.is_active !== 1) throw new UnauthenticatedError('code has expired or was never sent; request a new one', 'INVALID_CREDENTIALS');
  const hash = await hashSecret(input.new_password);
  await checkOtp(ctx, user.id, 'reset', input.otp, true);
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('users')
      .set({ password_hash: hash, failed_logins: 0, locked_until: null, must_change_password: 0, updated_at: tx.clock.now() })
      .where('id', '=', user.id)
      .execute();
    await revokeAllForUser(tx, user.id);
    await recordAudit(tx, { action: 'auth.password_reset', description: 'Reset password', userId: user.id, orgId: user.org_id, storeId: user.store_id });
  });
}
