/** Forgotten passwords: a reset code by SMS (or email), then a new password. Answers never reveal whether an account exists. */
import type { ResetPasswordInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { ServiceContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { findUserByIdentifier } from '../../tenancy/tenancy.exports.js';
import { checkOtp, codeRefused, issueOtpAfterAnswer } from './otp.js';
import { proved } from './sign-in-guard.js';
import { revokeAllForUser } from './tokens.js';

export const FORGOT_MESSAGE = 'If an account matches, a reset code has been sent to its phone or email.';

/** The same look-ups whether or not an account matches; a code is sent, after the answer, only when one does. */
export async function forgotPassword(ctx: ServiceContext, identifier: string): Promise<void> {
  await ctx.limits.authByIdentifier(identifier);
  const user = await findUserByIdentifier(ctx.db, identifier);
  issueOtpAfterAnswer(ctx, user?.is_active === 1 ? user : undefined, 'reset');
}

/**
 * Sets the new password, lifts this address's lock and signs out every session of the account.
 * The code is checked first, the same way for every name, so that an unknown account and a wrong
 * code cost the same; the new password is hashed only once the code has worked.
 */
export async function resetPassword(ctx: ServiceContext, input: ResetPasswordInput, address: string): Promise<void> {
  await ctx.limits.authByIdentifier(input.identifier);
  const found = await findUserByIdentifier(ctx.db, input.identifier);
  const user = found?.is_active === 1 ? found : undefined;
  await checkOtp(ctx, user?.id, 'reset', input.otp, true);
  if (!user) throw codeRefused();
  const hash = await hashSecret(input.new_password);
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('users')
      .set({ password_hash: hash, failed_logins: 0, locked_until: null, must_change_password: 0, updated_at: tx.clock.now() })
      .where('id', '=', user.id)
      .execute();
    await revokeAllForUser(tx, user.id);
    await proved(tx, address, user);
    await recordAudit(tx, {
      action: 'auth.password_reset',
      description: 'Reset password',
      userId: user.id,
      orgId: user.org_id,
      storeId: user.store_id,
    });
  });
}
