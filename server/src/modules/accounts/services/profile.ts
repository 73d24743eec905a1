import type { Profile, UpdateMeInput } from '@duka/shared';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { hashSecret, verifySecret } from '../../../lib/crypto.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { requireSettledPassword } from '../../../lib/auth/authorize.js';
import {
  findStore,
  listActiveStores,
  toStore,
  findOrganisation,
  toOrganisation,
  findUserById,
  toUser,
} from '../../tenancy/tenancy.exports.js';
import { assertIdentityFree, rethrowDuplicate, sendConfirmationEmail } from '../../auth/auth.exports.js';
import { updateOwnProfile } from '../accounts.queries.js';

export async function getProfile(ctx: AuthedContext): Promise<Profile> {
  const { actor } = ctx;
  const user = await findUserById(ctx.db, actor.userId);
  if (!user) throw new NotFoundError('user');
  if (!actor.orgId) return { user: toUser(user), organisation: null, store: null, stores: [] };
  const [org, store, stores] = await Promise.all([
    findOrganisation(ctx.db, actor.orgId),
    actor.storeId ? findStore(ctx.db, actor.orgId, actor.storeId) : undefined,
    listActiveStores(ctx.db, actor.orgId),
  ]);
  const visible = actor.role === 'owner' ? stores : stores.filter((s) => s.id === user.store_id);
  return {
    user: toUser(user),
    organisation: org ? toOrganisation(org) : null,
    store: store ? toStore(store) : null,
    stores: visible.map(toStore),
  };
}

/**
 * A new password takes `current_password` when given (the contract does not require it); it signs
 * out every other session. A new email must be confirmed again. A session signed in with a
 * temporary password may only set a new one, different from the temporary one; that lifts the
 * restriction from the next request on (the session gate reads it afresh on every instance).
 */
export async function updateMe(ctx: AuthedContext, input: UpdateMeInput): Promise<Profile> {
  const user = await findUserById(ctx.db, ctx.actor.userId);
  if (!user) throw new NotFoundError('user');
  if (ctx.actor.passwordChangeRequired && !input.password) requireSettledPassword(ctx.actor);
  // A temporary password went out by SMS: it may not become the real one, whichever way the session signed in.
  if (user.must_change_password === 1 && input.password && (await verifySecret(input.password, user.password_hash))) {
    throw new ValidationError('password', 'must differ from your temporary password');
  }
  if (input.password && input.current_password && !(await verifySecret(input.current_password, user.password_hash))) {
    throw new ValidationError('current_password', 'is wrong');
  }
  const emailChanged = input.email !== undefined && input.email !== user.email;
  if (emailChanged) await assertIdentityFree(ctx, null, input.email!, user.id);
  const passwordHash = input.password ? await hashSecret(input.password) : undefined;
  try {
    await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const updated = await updateOwnProfile(tx.db, user.id, input, { emailChanged, passwordHash }, now);
      if (passwordHash) {
        await tx.db
          .updateTable('refresh_tokens')
          .set({ revoked_at: now })
          .where('user_id', '=', user.id)
          .where('family_id', '!=', ctx.actor.sid)
          .where('revoked_at', 'is', null)
          .execute();
        afterCommit(tx, () => {
          tx.realtime.revoked({ userId: user.id, exceptSid: ctx.actor.sid });
          tx.realtime.userChanged(user.id);
        });
        await recordAudit(tx, { action: 'account.password_change', description: 'Changed password' });
      }
      if (emailChanged) await sendConfirmationEmail(tx, updated, false);
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
  return getProfile(ctx);
}
