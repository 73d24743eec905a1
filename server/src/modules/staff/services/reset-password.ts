import type { AuthedContext } from '../../../lib/context.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireRole } from '../../../lib/auth/authorize.js';
import { InvalidStateError } from '../../../lib/errors.js';
import { resetToTemporaryPassword } from '../../accounts/accounts.exports.js';
import { requireStaffMember } from './staff-context.js';

/**
 * The owner's reset of a member's forgotten password: a new temporary password by SMS (as a new
 * member gets one), every session of the member signed out, and the next sign-in may only set a
 * new password. A deactivated member is not reset: reactivate them first (PATCH /staff/{id}/shift).
 */
export async function resetStaffPassword(ctx: AuthedContext, id: string): Promise<{ password_reset: true }> {
  requireRole(ctx, 'owner');
  const member = await requireStaffMember(ctx, id);
  if (member.is_active !== 1) throw new InvalidStateError('this staff member is deactivated; reactivate them first');
  await withTransaction(ctx, async (tx) => {
    await resetToTemporaryPassword(tx, member);
    await recordAudit(tx, {
      action: 'user.password_reset',
      description: `Reset the password of ${member.first_name} ${member.last_name}`.trim(),
      entity: 'user',
      entityId: member.id,
    });
  });
  return { password_reset: true };
}
