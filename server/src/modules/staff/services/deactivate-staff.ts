import type { AuthedContext } from '../../../lib/context.js';
import { deactivateUser } from '../../accounts/accounts.exports.js';
import { requireStaffMember } from './staff-context.js';
import { requireRole } from '../../../lib/auth/authorize.js';

/** Soft delete as DELETE /accounts/users/:id: inactive, signed out everywhere, history kept. */
export async function deactivateStaff(ctx: AuthedContext, id: string): Promise<{ deactivated: true }> {
  requireRole(ctx, 'owner');
  await requireStaffMember(ctx, id);
  await deactivateUser(ctx, id);
  return { deactivated: true };
}
