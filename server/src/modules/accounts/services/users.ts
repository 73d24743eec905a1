/** The organisation's user accounts (owner only). Staff management (issue 3) builds on createOrgUser. */
import { randomInt } from 'node:crypto';
import type { CreateUserInput, PermissionFlag, User } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext, TxContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import { findStore, findOrgUser, insertUser, permissionColumns, toUser, findOrganisation } from '../../tenancy/tenancy.exports.js';
import { assertIdentityFree, rethrowDuplicate, revokeAllForUser } from '../../auth/auth.exports.js';
import type { NewUser, UserRow } from '../../../db/tables/accounts.table.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { setTemporaryPassword } from '../accounts.queries.js';

export async function listUsers(ctx: AuthedContext): Promise<User[]> {
  requireRole(ctx, 'owner');
  const rows = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', requireOrg(ctx))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toUser);
}

/** Letters and digits that cannot be confused on a phone screen (no 0/O, 1/l/I), e.g. `kmtw-4827`. */
function temporaryPassword(): string {
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${pick('abcdefghjkmnpqrstuvwxyz', 4)}-${pick('23456789', 4)}`;
}

export type OrgUserFields = Omit<CreateUserInput, PermissionFlag> &
  Partial<Pick<NewUser, 'shift' | 'employment_status' | 'avatar_hue' | 'pin_hash'>> &
  Partial<Record<PermissionFlag, boolean>>;

/**
 * Create a user in the caller's organisation and text them a temporary password, which signs in
 * to a session that may only set a new one. Permission flags default from the role: a manager
 * holds every one, staff none.
 */
export async function createOrgUser(ctx: AuthedContext, input: OrgUserFields): Promise<User> {
  requireRole(ctx, 'owner');
  const orgId = ctx.actor.orgId!;
  const phone = normalisePhone(input.phone);
  await checkPlanAllows(ctx, orgId, 'staff');
  const email = input.email ?? null;
  const storeId = input.store_id ?? ctx.actor.storeId;
  const store = storeId ? await findStore(ctx.db, orgId, storeId) : undefined;
  if (!store) throw new NotFoundError('store');
  if (store.is_active !== 1) throw new InvalidStateError('this store is deactivated');
  await assertIdentityFree(ctx, phone, email);
  const password = temporaryPassword();
  const passwordHash = await hashSecret(password);
  const byDefault = input.role !== 'staff';
  try {
    return await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const row = await insertUser(
        tx.db,
        {
          org_id: orgId,
          store_id: store.id,
          first_name: input.first_name,
          last_name: input.last_name,
          phone,
          email,
          password_hash: passwordHash,
          pin_hash: input.pin_hash ?? null,
          role: input.role,
          shift: input.shift ?? null,
          employment_status: input.employment_status ?? 'active',
          avatar_hue: input.avatar_hue ?? null,
          ...permissionColumns((c) => input[c] ?? byDefault),
          must_change_password: 1,
        },
        now,
      );
      const org = await findOrganisation(tx.db, orgId);
      await tx.messenger.send(tx, {
        channel: 'sms',
        to: phone,
        body:
          `Karibu ${org?.name ?? 'Duka'}! Sign in to Duka with ${phone} and temporary password ${password}, then change it. / ` +
          `Ingia Duka kwa ${phone} na nenosiri la muda ${password}.`,
        sensitive: true,
      });
      await recordAudit(tx, {
        action: 'user.create',
        description: `Added ${input.first_name} ${input.last_name}`.trim(),
        entity: 'user',
        entityId: row.id,
      });
      return toUser(row);
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

/**
 * A platform admin's password reset (PATCH /admin/users/:id with `reset_password`): a new temporary
 * password, texted (or emailed to an account without a phone); every session of the user signs
 * out, and the next sign-in may only set a new password.
 */
export async function resetToTemporaryPassword(tx: TxContext, user: UserRow): Promise<void> {
  const password = temporaryPassword();
  await setTemporaryPassword(tx.db, user.id, await hashSecret(password), tx.clock.now());
  await revokeAllForUser(tx, user.id);
  const to = user.phone ?? user.email;
  if (!to) throw new InvalidStateError('this account has neither a phone nor an email to send a temporary password to');
  await tx.messenger.send(tx, {
    channel: user.phone ? 'sms' : 'email',
    to,
    subject: 'Your Duka password was reset',
    body: `Your Duka password was reset. Sign in with temporary password ${password}, then set a new one. / Nenosiri lako la Duka limebadilishwa: ingia kwa ${password}.`,
    sensitive: true,
  });
}

/** Soft delete: the account can no longer sign in or refresh; its history stays. */
export async function deactivateUser(ctx: AuthedContext, userId: string): Promise<void> {
  requireRole(ctx, 'owner');
  const user = await findOrgUser(ctx.db, requireOrg(ctx), userId);
  if (!user) throw new NotFoundError('user');
  if (user.id === ctx.actor.userId) throw new InvalidStateError('you cannot deactivate your own account');
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('users')
      .set({ is_active: 0, employment_status: 'inactive', updated_at: tx.clock.now() })
      .where('id', '=', user.id)
      .execute();
    await revokeAllForUser(tx, user.id);
    await recordAudit(tx, {
      action: 'user.deactivate',
      description: `Deactivated ${user.first_name} ${user.last_name}`.trim(),
      entity: 'user',
      entityId: user.id,
    });
  });
}
