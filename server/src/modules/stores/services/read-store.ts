import type { Store, StoreStaffList } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { NotFoundError } from '../../../lib/errors.js';
import { toUser, findStore, toStore } from '../../tenancy/tenancy.exports.js';
import { listStoreUsers } from '../stores.queries.js';
import type { StoreRow } from '../../../db/tables/stores.table.js';

/** A store of the caller's organisation; another organisation's id is not found, like an unknown one. */
export async function requireOrgStore(ctx: AuthedContext, id: string): Promise<StoreRow> {
  const store = await findStore(ctx.db, requireOrg(ctx), id);
  if (!store) throw new NotFoundError('store');
  return store;
}

export async function getStore(ctx: AuthedContext, id: string): Promise<Store> {
  requireRole(ctx, 'owner');
  return toStore(await requireOrgStore(ctx, id));
}

/** Active accounts assigned to the store, any role (the owner too), by name; deactivated accounts are left out. */
export async function listStoreStaff(ctx: AuthedContext, id: string): Promise<StoreStaffList> {
  requireRole(ctx, 'owner');
  const store = await requireOrgStore(ctx, id);
  const items = (await listStoreUsers(ctx.db, store.org_id, store.id)).map(toUser);
  return { items, count: items.length };
}
