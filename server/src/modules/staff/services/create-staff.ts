import type { CreateStaffInput, StaffMember } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { createOrgUser } from '../../accounts/accounts.exports.js';
import { requireRole } from '../../../lib/auth/authorize.js';

/** A new employee with a temporary password by SMS (createOrgUser); the PIN is kept only as a hash. */
export async function createStaff(ctx: AuthedContext, input: CreateStaffInput): Promise<StaffMember> {
  requireRole(ctx, 'owner');
  const { pin, ...fields } = input;
  const pinHash = pin ? await hashSecret(pin) : null;
  return createOrgUser(ctx, { ...fields, pin_hash: pinHash });
}
