/** Users and stores of every organisation; admin writes go through the staff, accounts and stores services. */
import type {
  AdminStore,
  AdminUser,
  ListAdminStoresQuery,
  ListAdminUsersQuery,
  PageMeta,
  UpdateAdminStoreInput,
  UpdateAdminUserInput,
} from '@duka/shared';
import { containsText } from '../../../db/dialect.js';
import { recordAudit } from '../../../lib/audit.js';
import { isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError, NotFoundError } from '../../../lib/errors.js';
import { toUser, toStore } from '../../tenancy/tenancy.exports.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { deactivateUser, resetToTemporaryPassword } from '../../accounts/accounts.exports.js';
import { updateStaff } from '../../staff/staff.exports.js';
import type { StoreRow } from '../../../db/tables/stores.table.js';
import { updateStore } from '../../stores/stores.exports.js';
import { acrossOrgs, adminTx, asOrg, auditAdmin, requireOrgExists } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';

type UserWithOrg = UserRow & { organisation_name: string | null };

export const toAdminUser = (row: UserWithOrg): AdminUser => ({
  ...toUser(row),
  org_id: row.org_id,
  organisation_name: row.organisation_name,
  last_login_at: isoOrNull(row.last_login_at == null ? null : Number(row.last_login_at)),
});

function usersWithOrg(ctx: AuthedContext) {
  return ctx.db.selectFrom('users as u').leftJoin('organisations as o', 'o.id', 'u.org_id');
}

export async function listAdminUsers(ctx: AuthedContext, q: ListAdminUsersQuery): Promise<{ items: AdminUser[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = usersWithOrg(ctx);
  if (q.org_id) base = base.where('u.org_id', '=', q.org_id);
  if (q.store_id) base = base.where('u.store_id', '=', q.store_id);
  if (q.role) base = base.where('u.role', '=', q.role);
  if (q.status) base = base.where('u.is_active', '=', q.status === 'active' ? 1 : 0);
  if (q.search) {
    const t = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText(ctx.dialect, 'u.first_name', t),
        containsText(ctx.dialect, 'u.last_name', t),
        containsText(ctx.dialect, 'u.email', t),
        containsText(ctx.dialect, 'u.phone', t),
      ]),
    );
  }
  const { rows, meta } = await countedPage(
    base,
    base.selectAll('u').select('o.name as organisation_name').orderBy('u.created_at', 'desc').orderBy('u.id', 'desc'),
    q,
  );
  return { items: rows.map(toAdminUser), meta };
}

async function requireAdminUser(ctx: AuthedContext, id: string): Promise<UserWithOrg> {
  const row = await usersWithOrg(ctx).selectAll('u').select('o.name as organisation_name').where('u.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('user');
  return row;
}

/**
 * Staff and managers change through the staff service (role, deactivation with sign-out,
 * reactivation); owners through the accounts service. Administrators are not changed here.
 */
export async function updateUserByAdmin(ctx: AuthedContext, id: string, input: UpdateAdminUserInput): Promise<AdminUser> {
  requireAdmin(ctx);
  const user = await requireAdminUser(ctx, id);
  if (user.role === 'admin' || !user.org_id) throw new BusinessRuleError('platform administrators are not managed through this route');
  if (user.role === 'owner' && input.role !== undefined)
    throw new BusinessRuleError("an owner's role cannot be changed", 'BUSINESS_RULE', 'role');
  const orgId = user.org_id;
  const name = `${user.first_name} ${user.last_name}`.trim();
  const activeNow = user.is_active === 1;
  const activate = input.is_active !== undefined && input.is_active !== activeNow ? input.is_active : undefined;
  const role = input.role !== undefined && input.role !== user.role ? input.role : undefined;
  const reset = input.reset_password === true;
  if (activate === undefined && role === undefined && !reset) return toAdminUser(user);
  await adminTx(ctx, async (tx) => {
    const org = await asOrg(tx, orgId, user.store_id);
    if (user.role === 'owner') {
      if (activate === false) await deactivateUser(org, user.id);
      else if (activate === true) {
        await tx.db
          .updateTable('users')
          .set({ is_active: 1, employment_status: 'active', updated_at: tx.clock.now() })
          .where('id', '=', user.id)
          .execute();
        await recordAudit(org, { action: 'user.reactivate', description: `Reactivated ${name}`, entity: 'user', entityId: user.id });
      }
    } else {
      const employment = activate === false ? 'inactive' : activate === true ? 'active' : undefined;
      if (activate !== undefined || role !== undefined) await updateStaff(org, user.id, { role, employment_status: employment });
    }
    if (reset) await resetToTemporaryPassword(tx, user);
    const notes = [
      ...(activate !== undefined ? [activate ? 'reactivated' : 'deactivated (signed out)'] : []),
      ...(role ? [`role ${role}`] : []),
      ...(reset ? ['temporary password sent (signed out)'] : []),
    ];
    await auditAdmin(tx, {
      action: 'user.update',
      description: `Platform admin updated ${name}: ${notes.join(', ')}`,
      orgId,
      storeId: user.store_id,
      entity: 'user',
      entityId: user.id,
    });
  });
  return toAdminUser(await requireAdminUser(ctx, id));
}

type StoreWithOrg = StoreRow & { organisation_name: string; user_count: number | string | null };

export const toAdminStore = (row: StoreWithOrg): AdminStore => ({
  ...toStore(row),
  org_id: row.org_id,
  organisation_name: row.organisation_name,
  user_count: Number(row.user_count ?? 0),
});

function storesWithOrg(ctx: AuthedContext) {
  return ctx.db.selectFrom('stores as s').innerJoin('organisations as o', 'o.id', 's.org_id');
}

function selectStores(ctx: AuthedContext) {
  return storesWithOrg(ctx)
    .selectAll('s')
    .select('o.name as organisation_name')
    .select((eb) =>
      eb
        .selectFrom('users')
        .select((u) => u.fn.countAll<number>().as('n'))
        .whereRef('users.store_id', '=', 's.id')
        .where('users.is_active', '=', 1)
        .as('user_count'),
    );
}

export async function listAdminStores(ctx: AuthedContext, q: ListAdminStoresQuery): Promise<{ items: AdminStore[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = storesWithOrg(ctx);
  base = q.org_id ? base.where('s.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.status) base = base.where('s.is_active', '=', q.status === 'active' ? 1 : 0);
  if (q.search) {
    const t = q.search;
    base = base.where((eb) =>
      eb.or([containsText(ctx.dialect, 's.name', t), containsText(ctx.dialect, 's.code', t), containsText(ctx.dialect, 's.area', t)]),
    );
  }
  const ids = base.select('s.id');
  const { rows, meta } = await countedPage(
    base,
    selectStores(ctx)
      .where('s.id', 'in', ids)
      .$call((qb) => (q.org_id ? qb.where('s.org_id', '=', q.org_id) : qb.modifyEnd(acrossOrgs)))
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc'),
    q,
  );
  return { items: rows.map(toAdminStore), meta };
}

/** The stores of one organisation (404 for an unknown organisation), oldest first. */
export async function listOrganisationStores(ctx: AuthedContext, orgId: string, q: { page: number; page_size: number }) {
  requireAdmin(ctx);
  await requireOrgExists(ctx, orgId);
  return listAdminStores(ctx, { ...q, org_id: orgId });
}

export async function listOrganisationUsers(ctx: AuthedContext, orgId: string, q: ListAdminUsersQuery) {
  requireAdmin(ctx);
  await requireOrgExists(ctx, orgId);
  return listAdminUsers(ctx, { ...q, org_id: orgId });
}

async function requireAdminStore(ctx: AuthedContext, id: string): Promise<StoreWithOrg> {
  const row = await selectStores(ctx).where('s.id', '=', id).modifyEnd(acrossOrgs).executeTakeFirst();
  if (!row) throw new NotFoundError('store');
  return row;
}

/** Through the stores service: the only active store of an organisation cannot be deactivated (409). */
export async function updateStoreByAdmin(ctx: AuthedContext, id: string, input: UpdateAdminStoreInput): Promise<AdminStore> {
  requireAdmin(ctx);
  const store = await requireAdminStore(ctx, id);
  await adminTx(ctx, async (tx) => {
    const org = await asOrg(tx, store.org_id, store.id);
    const after = await updateStore(org, store.id, input);
    const notes = [
      ...(input.is_active !== undefined && after.is_active !== (store.is_active === 1)
        ? [after.is_active ? 'reactivated' : 'deactivated']
        : []),
      ...(input.status !== undefined && input.status !== store.status ? [`status ${input.status}`] : []),
    ];
    if (notes.length)
      await auditAdmin(tx, {
        action: 'store.update',
        description: `Platform admin updated store ${store.name}: ${notes.join(', ')}`,
        orgId: store.org_id,
        storeId: store.id,
        entity: 'store',
        entityId: store.id,
      });
  });
  return toAdminStore(await requireAdminStore(ctx, id));
}
