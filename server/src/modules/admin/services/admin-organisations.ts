/** Organisations as the platform sees them: list, detail with related counts, suspension and AI credits. */
import { SoldStatus, fromCents } from '@duka/shared';
import type {
  AdminOrganisation,
  AdminOrganisationDetail,
  ListAdminOrganisationsQuery,
  PageMeta,
  UpdateAdminOrganisationInput,
} from '@duka/shared';
import { containsText } from '../../../db/dialect.js';
import { noteChange } from '../../../db/change-log.js';
import { isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localMonth } from '../../../lib/time.js';
import { findOrganisation, toOrganisation } from '../../tenancy/tenancy.exports.js';
import type { OrganisationRow } from '../../../db/tables/accounts.table.js';
import { revokeAllForUser } from '../../auth/auth.exports.js';
import { organisationsCounted } from '../admin.queries.js';
import { acrossOrgs, adminTx, auditAdmin } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { aiCreditAllowance } from '../../billing/billing.exports.js';
import { UNLIMITED_AI_CREDITS } from '../../accounts/accounts.exports.js';

type Counted = OrganisationRow & { store_count: number | string | null; user_count: number | string | null; plan_code: string | null };

export function toAdminOrganisation(row: Counted): AdminOrganisation {
  return {
    ...toOrganisation(row),
    is_active: row.is_active === 1,
    ai_credits_monthly: row.ai_credits_monthly,
    plan: row.plan_code ?? 'free',
    store_count: Number(row.store_count ?? 0),
    user_count: Number(row.user_count ?? 0),
  };
}

export async function listOrganisations(
  ctx: AuthedContext,
  q: ListAdminOrganisationsQuery,
): Promise<{ items: AdminOrganisation[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('organisations as o').modifyEnd(acrossOrgs);
  if (q.search) {
    const text = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText(ctx.dialect, 'o.name', text),
        containsText(ctx.dialect, 'o.legal_name', text),
        containsText(ctx.dialect, 'o.email', text),
        containsText(ctx.dialect, 'o.phone', text),
      ]),
    );
  }
  if (q.status) base = base.where('o.is_active', '=', q.status === 'active' ? 1 : 0);
  if (q.business_type) base = base.where('o.business_type', '=', q.business_type);
  const ids = base.select('o.id');
  const { rows, meta } = await countedPage(
    base,
    organisationsCounted(ctx.db).where('o.id', 'in', ids).orderBy('o.created_at', 'desc').orderBy('o.id', 'desc'),
    q,
  );
  return { items: rows.map(toAdminOrganisation), meta };
}

async function requireCounted(ctx: AuthedContext, id: string): Promise<Counted> {
  const row = await organisationsCounted(ctx.db).where('o.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('organisation');
  return row;
}

export async function getOrganisationDetail(ctx: AuthedContext, id: string): Promise<AdminOrganisationDetail> {
  requireAdmin(ctx);
  const org = await requireCounted(ctx, id);
  const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);
  const n = (table: 'stores' | 'users' | 'products' | 'customers' | 'suppliers' | 'transactions' | 'devices') =>
    ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', id);
  const month = localMonth(ctx.clock.now(), org.timezone);
  const [stores, activeStores, users, activeUsers, products, customers, suppliers, transactions, devices, sales, usage] = await Promise.all(
    [
      count(n('stores').executeTakeFirst()),
      count(n('stores').where('is_active', '=', 1).executeTakeFirst()),
      count(n('users').executeTakeFirst()),
      count(n('users').where('is_active', '=', 1).executeTakeFirst()),
      count(n('products').executeTakeFirst()),
      count(n('customers').executeTakeFirst()),
      count(n('suppliers').where('deleted_at', 'is', null).executeTakeFirst()),
      count(n('transactions').executeTakeFirst()),
      count(n('devices').executeTakeFirst()),
      ctx.db
        .selectFrom('transactions')
        .select((eb) => [eb.fn.sum<number>('total').as('total'), eb.fn.max('created_at').as('last')])
        .where('org_id', '=', id)
        .where('status', 'in', SoldStatus.options)
        .executeTakeFirst(),
      ctx.db.selectFrom('ai_credit_usage').select('used').where('org_id', '=', id).where('month', '=', month).executeTakeFirst(),
    ],
  );
  return {
    ...toAdminOrganisation(org),
    counts: {
      stores,
      active_stores: activeStores,
      users,
      active_users: activeUsers,
      products,
      customers,
      suppliers,
      transactions,
      devices,
    },
    sales_total: fromCents(Number(sales?.total ?? 0)),
    last_sale_at: isoOrNull(sales?.last == null ? null : Number(sales.last)),
    ai_credits: {
      month,
      used: Number(usage?.used ?? 0),
      allocated: org.ai_credits_monthly ?? (await aiCreditAllowance(ctx.db, org.id)).allowance ?? UNLIMITED_AI_CREDITS,
    },
  };
}

/** Suspending signs every user of the organisation out; the allocation null returns to the platform default. */
export async function updateOrganisationByAdmin(
  ctx: AuthedContext,
  id: string,
  input: UpdateAdminOrganisationInput,
): Promise<AdminOrganisationDetail> {
  requireAdmin(ctx);
  const org = await findOrganisation(ctx.db, id);
  if (!org) throw new NotFoundError('organisation');
  const notes: string[] = [];
  const set: { is_active?: number; ai_credits_monthly?: number | null } = {};
  if (input.is_active !== undefined && (input.is_active ? 1 : 0) !== org.is_active) {
    set.is_active = input.is_active ? 1 : 0;
    notes.push(input.is_active ? 'reactivated' : 'suspended (users signed out)');
  }
  if (input.ai_credits_monthly !== undefined && input.ai_credits_monthly !== org.ai_credits_monthly) {
    set.ai_credits_monthly = input.ai_credits_monthly;
    notes.push(`AI credits ${input.ai_credits_monthly ?? 'from the plan'}`);
  }
  if (notes.length) {
    await adminTx(ctx, async (tx) => {
      await tx.db
        .updateTable('organisations')
        .set({ ...set, updated_at: tx.clock.now() })
        .where('id', '=', id)
        .execute();
      if (set.is_active === 0) {
        const users = await tx.db.selectFrom('users').select('id').where('org_id', '=', id).execute();
        for (const u of users) await revokeAllForUser(tx, u.id);
      }
      noteChange(tx, id, { entity: 'organisation', id });
      await auditAdmin(tx, {
        action: 'organisation.update',
        description: `Platform admin updated organisation ${org.name}: ${notes.join(', ')}`,
        orgId: id,
        entity: 'organisation',
        entityId: id,
      });
    });
  }
  return getOrganisationDetail(ctx, id);
}
