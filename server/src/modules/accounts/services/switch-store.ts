import type { Store, TokenPair } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError, InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { findStore, toStore, findUserById } from '../../tenancy/tenancy.exports.js';
import { issueTokens } from '../../auth/auth.exports.js';

/**
 * A new token pair for `storeId`, continuing the same session: the old pair's refresh token stops
 * working, while access tokens already issued for the previous store run out on their own (the
 * session is still signed in). Staff may use only their own store.
 */
export async function switchStore(ctx: AuthedContext, storeId: string): Promise<{ store: Store; tokens: TokenPair }> {
  const { actor } = ctx;
  const store = actor.orgId ? await findStore(ctx.db, actor.orgId, storeId) : undefined;
  if (!store) throw new NotFoundError('store');
  if (store.is_active !== 1) throw new InvalidStateError('this store is deactivated');
  const user = await findUserById(ctx.db, actor.userId);
  if (!user || user.is_active !== 1) throw new ForbiddenError('this account is no longer active');
  if (user.role !== 'owner' && user.store_id !== store.id) throw new ForbiddenError('you can only work in the store you are assigned to');
  return withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: tx.clock.now() })
      .where('family_id', '=', actor.sid)
      .where('revoked_at', 'is', null)
      .execute();
    const tokens = await issueTokens(tx, user, { storeId: store.id, amr: actor.amr, familyId: actor.sid });
    return { store: toStore(store), tokens };
  });
}
