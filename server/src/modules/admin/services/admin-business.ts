/** Business records of every organisation: customers, credit tabs, suppliers with their deliveries and payments, expenses. */
import type {
  AdminCreditTab,
  AdminCustomer,
  AdminExpense,
  AdminSupplier,
  ListAdminCreditsQuery,
  ListAdminCustomersQuery,
  ListAdminDeliveriesQuery,
  ListAdminExpensesQuery,
  ListAdminSupplierPaymentsQuery,
  ListAdminSuppliersQuery,
  PageMeta,
} from '@duka/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/database.js';
import { containsText } from '../../../db/dialect.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { DEFAULT_TIMEZONE, localDate } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { toCreditTab } from '../../credits/credits.exports.js';
import { outstandingOf as customerOwes, pastDue, tabBalance, toCustomer } from '../../customers/customers.exports.js';
import { toExpense } from '../../expenses/expenses.exports.js';
import { orgPayments, outstandingOf as supplierOwes, toDeliveries, toPayments, toSupplier } from '../../suppliers/suppliers.exports.js';
import { supplierDeliveries } from '../admin.queries.js';
import { acrossOrgs, adminDateRange, withOrgNames } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';

type Page<T> = { items: T[]; meta: PageMeta };

export async function listAdminCustomers(ctx: AuthedContext, q: ListAdminCustomersQuery): Promise<Page<AdminCustomer>> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('customers');
  base = q.org_id ? base.where('customers.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.status) base = base.where('customers.is_active', '=', q.status === 'active' ? 1 : 0);
  if (q.search) {
    const t = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText(ctx.dialect, 'customers.name', t),
        containsText(ctx.dialect, 'customers.email', t),
        containsText(ctx.dialect, 'customers.phone', t),
      ]),
    );
  }
  if (q.has_credit !== undefined)
    base = base.where((eb) => eb(customerOwes(eb as ExpressionBuilder<Database, 'customers'>), q.has_credit ? '>' : '<=', 0));
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('customers')
      .select((eb) => customerOwes(eb).as('outstanding'))
      .orderBy('customers.created_at', 'desc')
      .orderBy('customers.id', 'desc'),
    q,
  );
  const items = await withOrgNames(ctx, rows, (r) => r.org_id);
  return { items: items.map((r) => ({ ...toCustomer(r), org_id: r.org_id, organisation_name: r.organisation_name })), meta };
}

/** Overdue is judged against the organisation's today (the platform's, Africa/Dar_es_Salaam, without `org_id`). */
export async function listAdminCredits(ctx: AuthedContext, q: ListAdminCreditsQuery): Promise<Page<AdminCreditTab>> {
  requireAdmin(ctx);
  const now = ctx.clock.now();
  const filterToday = localDate(now, q.org_id ? await orgTimezone(ctx.db, q.org_id) : DEFAULT_TIMEZONE);
  let base = ctx.db
    .selectFrom('credit_tabs')
    .innerJoin('customers', (j) =>
      j.onRef('customers.id', '=', 'credit_tabs.customer_id').onRef('customers.org_id', '=', 'credit_tabs.org_id'),
    )
    .innerJoin('organisations as o', 'o.id', 'credit_tabs.org_id');
  base = q.org_id ? base.where('credit_tabs.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.store_id) base = base.where('credit_tabs.store_id', '=', q.store_id);
  if (q.status) base = base.where('credit_tabs.status', '=', q.status);
  if (q.overdue !== undefined) {
    const overdue = q.overdue;
    base = base.where((eb) => {
      const tabs = eb as unknown as ExpressionBuilder<Database, 'credit_tabs'>;
      const cond = eb.and([eb(tabBalance(tabs), '>', 0), pastDue(tabs, filterToday)]);
      return overdue ? cond : eb.not(cond);
    });
  }
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('credit_tabs')
      .select(['customers.name as customer_name', 'o.name as organisation_name', 'o.timezone'])
      .orderBy('credit_tabs.created_at', 'desc')
      .orderBy('credit_tabs.id', 'desc'),
    q,
  );
  return {
    items: rows.map((r) => ({ ...toCreditTab(r, localDate(now, r.timezone)), org_id: r.org_id, organisation_name: r.organisation_name })),
    meta,
  };
}

export async function listAdminSuppliers(ctx: AuthedContext, q: ListAdminSuppliersQuery): Promise<Page<AdminSupplier>> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('suppliers').where('suppliers.deleted_at', 'is', null);
  base = q.org_id ? base.where('suppliers.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.status) base = base.where('suppliers.status', '=', q.status);
  if (q.search) {
    const t = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText(ctx.dialect, 'suppliers.name', t),
        containsText(ctx.dialect, 'suppliers.rep', t),
        containsText(ctx.dialect, 'suppliers.phone', t),
        containsText(ctx.dialect, 'suppliers.email', t),
      ]),
    );
  }
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('suppliers')
      .select((eb) => [
        supplierOwes(eb).as('outstanding'),
        eb
          .selectFrom('deliveries')
          .select((d) => d.fn.countAll<number>().as('n'))
          .whereRef('deliveries.supplier_id', '=', 'suppliers.id')
          .whereRef('deliveries.org_id', '=', 'suppliers.org_id')
          .where('deliveries.deleted_at', 'is', null)
          .as('delivery_count'),
        eb
          .selectFrom('supplier_payments')
          .select((p) => p.fn.countAll<number>().as('n'))
          .whereRef('supplier_payments.supplier_id', '=', 'suppliers.id')
          .whereRef('supplier_payments.org_id', '=', 'suppliers.org_id')
          .as('payment_count'),
      ])
      .orderBy('suppliers.name')
      .orderBy('suppliers.id'),
    q,
  );
  const items = await withOrgNames(ctx, rows, (r) => r.org_id);
  return {
    items: items.map((r) => ({
      ...toSupplier(r),
      org_id: r.org_id,
      organisation_name: r.organisation_name,
      delivery_count: Number(r.delivery_count ?? 0),
      payment_count: Number(r.payment_count ?? 0),
    })),
    meta,
  };
}

/** Any supplier, deleted ones included (their history stays readable); the path names it by id alone. */
async function requireAnySupplier(ctx: AuthedContext, id: string) {
  const row = await ctx.db.selectFrom('suppliers').select(['id', 'org_id']).where('id', '=', id).modifyEnd(acrossOrgs).executeTakeFirst();
  if (!row) throw new NotFoundError('supplier');
  return row;
}

/** Every store's deliveries from the supplier, newest first; `unpaid` as on the owner list. */
export async function listAdminSupplierDeliveries(ctx: AuthedContext, supplierId: string, q: ListAdminDeliveriesQuery) {
  requireAdmin(ctx);
  const supplier = await requireAnySupplier(ctx, supplierId);
  const base = supplierDeliveries(ctx.db, supplier.org_id, supplier.id, q.unpaid);
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('deliveries')
      .select('suppliers.name as supplier_name')
      .orderBy('deliveries.delivery_date', 'desc')
      .orderBy('deliveries.id', 'desc'),
    q,
  );
  const items = await withOrgNames(ctx, await toDeliveries(ctx.db, rows), () => supplier.org_id);
  return { items, meta };
}

export async function listAdminSupplierPayments(ctx: AuthedContext, supplierId: string, q: ListAdminSupplierPaymentsQuery) {
  requireAdmin(ctx);
  const supplier = await requireAnySupplier(ctx, supplierId);
  const base = orgPayments(ctx.db, supplier.org_id).where('supplier_payments.supplier_id', '=', supplier.id);
  const { rows, meta } = await countedPage(
    base,
    base.orderBy('supplier_payments.paid_at', 'desc').orderBy('supplier_payments.id', 'desc'),
    q,
  );
  const items = await withOrgNames(ctx, await toPayments(ctx.db, rows), () => supplier.org_id);
  return { items, meta };
}

export async function listAdminExpenses(ctx: AuthedContext, q: ListAdminExpensesQuery): Promise<Page<AdminExpense>> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('expenses');
  base = q.org_id ? base.where('org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.store_id) base = base.where('store_id', '=', q.store_id);
  if (q.category) base = base.where('category', '=', q.category);
  if (q.search) base = base.where(containsText(ctx.dialect, 'title', q.search));
  const range = await adminDateRange(ctx, q);
  if (range) base = base.where('spent_at', '>=', range.from).where('spent_at', '<', range.to);
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('spent_at', 'desc').orderBy('id', 'desc'), q);
  const items = await withOrgNames(ctx, rows, (r) => r.org_id);
  return { items: items.map((r) => ({ ...toExpense(r), org_id: r.org_id, organisation_name: r.organisation_name })), meta };
}
