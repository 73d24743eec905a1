/**
 * Edits to an employee: PATCH /staff/:id, and the narrower shift and permission routes, all through
 * `updateStaff`. Role and permission changes apply from the user's next request (the session gate
 * reads them afresh, told on every instance); a store change reaches their tokens at the next refresh.
 */
import {
  Permission,
  PERMISSION_FLAG,
  type StaffMember,
  type StaffPermissionsInput,
  type StaffShiftInput,
  type UpdateStaffInput,
} from '@duka/shared';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { UserRow, UserUpdate } from '../../../db/tables/accounts.table.js';
import { toUser, findStore } from '../../tenancy/tenancy.exports.js';
import { assertIdentityFree, rethrowDuplicate, revokeAllForUser } from '../../auth/auth.exports.js';
import { updateStaffMemberRow } from '../staff.queries.js';
import { requireStaffMember } from './staff-context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';

const FLAGS = Permission.options.map((p) => [PERMISSION_FLAG[p], p] as const);

/** The columns that actually change, and a note per change for the audit trail (never a secret). */
async function diff(ctx: AuthedContext, member: UserRow, input: UpdateStaffInput) {
  const set: UserUpdate = {};
  const notes: string[] = [];
  const change = <K extends keyof UserUpdate>(key: K, value: UserUpdate[K], note: string) => {
    if (value === undefined || value === member[key as keyof UserRow]) return;
    set[key] = value;
    notes.push(note);
  };
  change('first_name', input.first_name, 'first name');
  change('last_name', input.last_name, 'last name');
  if (input.phone !== undefined) change('phone', normalisePhone(input.phone), 'phone');
  change('email', input.email, 'email');
  if (set.email !== undefined) set.email_verified_at = null;
  if (set.phone || set.email) await assertIdentityFree(ctx, set.phone ?? null, set.email ?? null, member.id);
  change('role', input.role, `role ${input.role}`);
  if (input.store_id !== undefined && input.store_id !== member.store_id) {
    const store = await findStore(ctx.db, requireOrg(ctx), input.store_id);
    if (!store) throw new NotFoundError('store');
    if (store.is_active !== 1) throw new InvalidStateError('this store is deactivated');
    change('store_id', store.id, `store ${store.name}`);
  }
  change('shift', input.shift, `shift ${input.shift ?? 'none'}`);
  change('avatar_hue', input.avatar_hue, 'avatar colour');
  if (input.pin === null) change('pin_hash', null, 'PIN removed');
  else if (input.pin !== undefined) change('pin_hash', await hashSecret(input.pin), 'PIN');
  for (const [flag, label] of FLAGS) {
    const value = input[flag];
    if (value !== undefined) change(flag, value ? 1 : 0, `${label} ${value ? 'on' : 'off'}`);
  }
  if (input.employment_status !== undefined) {
    change('employment_status', input.employment_status, `status ${input.employment_status}`);
    // `inactive` is what DELETE leaves; any other status gives the account back.
    change(
      'is_active',
      input.employment_status === 'inactive' ? 0 : 1,
      input.employment_status === 'inactive' ? 'deactivated' : 'reactivated',
    );
  }
  return { set, notes };
}

export async function updateStaff(
  ctx: AuthedContext,
  id: string,
  input: UpdateStaffInput,
  audit: { action: string; verb: string } = { action: 'staff.update', verb: 'Updated' },
): Promise<StaffMember> {
  requireRole(ctx, 'owner');
  const member = await requireStaffMember(ctx, id);
  const { set, notes } = await diff(ctx, member, input);
  if (notes.length === 0) return toUser(member);
  // Giving an account back grows the staff as hiring does.
  if (set.is_active === 1 && member.is_active !== 1) await checkPlanAllows(ctx, requireOrg(ctx), 'staff');
  const name = `${member.first_name} ${member.last_name}`.trim();
  try {
    return await withTransaction(ctx, async (tx) => {
      const row = await updateStaffMemberRow(tx.db, requireOrg(ctx), member.id, set, tx.clock.now());
      if (!row) throw new NotFoundError('staff member');
      if (set.is_active === 0) await revokeAllForUser(tx, member.id);
      // Role and permissions apply from the user's next request, not their next token.
      afterCommit(tx, () => tx.realtime.userChanged(member.id));
      await recordAudit(tx, {
        action: audit.action,
        description: `${audit.verb} ${name}: ${notes.join(', ')}`,
        entity: 'user',
        entityId: member.id,
      });
      return toUser(row);
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export const setStaffShift = (ctx: AuthedContext, id: string, input: StaffShiftInput) =>
  updateStaff(ctx, id, input, { action: 'staff.shift', verb: 'Changed the shift of' });

export const setStaffPermissions = (ctx: AuthedContext, id: string, input: StaffPermissionsInput) =>
  updateStaff(ctx, id, input, { action: 'staff.permissions', verb: 'Changed the permissions of' });
