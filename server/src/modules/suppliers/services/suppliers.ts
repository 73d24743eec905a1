/** The organisation's suppliers: CRUD (DELETE is soft), and the figures of /suppliers/stats. */
import { newId, fromCents } from '@duka/shared';
import type { CreateSupplierInput, ListSuppliersQuery, PageMeta, Supplier, SupplierStats, UpdateSupplierInput } from '@duka/shared';
import type { Updateable } from 'kysely';
import { containsText } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg, requirePower } from '../../../lib/auth/authorize.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localMonthRange } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import {
  countDeliveriesBetween,
  countSuppliers,
  findSupplier,
  insertSupplier,
  owedToSuppliers,
  suppliersWithBalance,
  toSupplier,
} from '../suppliers.queries.js';
import type { SupplierTable } from '../../../db/tables/suppliers.table.js';
import { countedPage } from '../../../db/page.js';

/** Supplier `id` of the caller's organisation, not deleted, with its balance; else 404. */
export async function requireSupplier(ctx: AuthedContext, id: string) {
  const row = await findSupplier(ctx.db, requireOrg(ctx), id);
  if (!row) throw new NotFoundError('supplier');
  return row;
}

function columns(input: UpdateSupplierInput): Updateable<SupplierTable> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Updateable<SupplierTable>;
}

export async function listSuppliers(ctx: AuthedContext, q: ListSuppliersQuery): Promise<{ items: Supplier[]; meta: PageMeta }> {
  const search = q.search?.trim();
  const base = suppliersWithBalance(ctx.db, requireOrg(ctx))
    .$if(!!search, (qb) =>
      qb.where((eb) =>
        eb.or(
          ['suppliers.name', 'suppliers.rep', 'suppliers.phone', 'suppliers.email', 'suppliers.category'].map((c) =>
            containsText(ctx.dialect, c, search!),
          ),
        ),
      ),
    )
    .$if(!!q.status, (qb) => qb.where('suppliers.status', '=', q.status!));
  const { rows, meta } = await countedPage(base, base.orderBy('suppliers.name').orderBy('suppliers.id'), q);
  return { items: rows.map(toSupplier), meta };
}

export const getSupplier = async (ctx: AuthedContext, id: string): Promise<Supplier> => toSupplier(await requireSupplier(ctx, id));

export async function createSupplier(ctx: AuthedContext, input: CreateSupplierInput): Promise<Supplier> {
  const orgId = requireOrg(ctx);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const id = newId();
    await insertSupplier(tx.db, { id, orgId, name: input.name, fields: columns(input), now });
    await recordAudit(tx, { action: 'supplier.create', description: `Added supplier ${input.name}`, entity: 'supplier', entityId: id });
    return toSupplier((await findSupplier(tx.db, orgId, id))!);
  });
}

/** Any supplier field; `null` clears an optional one. A PATCH that changes nothing writes nothing. */
export async function updateSupplier(ctx: AuthedContext, id: string, input: UpdateSupplierInput): Promise<Supplier> {
  const orgId = requireOrg(ctx);
  const before = await requireSupplier(ctx, id);
  const set = columns(input);
  if (!Object.entries(set).some(([k, v]) => before[k as keyof typeof before] !== v)) return toSupplier(before);
  return withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('suppliers')
      .set({ ...set, updated_at: tx.clock.now() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await recordAudit(tx, {
      action: 'supplier.update',
      description: `Updated supplier ${set.name ?? before.name}`,
      entity: 'supplier',
      entityId: id,
    });
    return toSupplier((await findSupplier(tx.db, orgId, id))!);
  });
}

/**
 * Soft delete: the supplier is deactivated and hidden (lists, stats, 404 on its id); its
 * deliveries and payments stay in the books.
 */
export async function deleteSupplier(ctx: AuthedContext, id: string): Promise<void> {
  const orgId = requireOrg(ctx);
  const before = await requireSupplier(ctx, id);
  requirePower(ctx, 'remove_supplier');
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await tx.db
      .updateTable('suppliers')
      .set({ status: 'inactive', deleted_at: now, updated_at: now })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await recordAudit(tx, { action: 'supplier.delete', description: `Deleted supplier ${before.name}`, entity: 'supplier', entityId: id });
  });
}

/** Organisation-wide; "this month" is the calendar month so far in the organisation's time zone. */
export async function supplierStats(ctx: AuthedContext): Promise<SupplierStats> {
  const orgId = requireOrg(ctx);
  const tz = await orgTimezone(ctx.db, orgId);
  const { from, to } = localMonthRange(ctx.clock.now(), tz);
  const [counts, owed, deliveries, paid] = await Promise.all([
    countSuppliers(ctx.db, orgId),
    owedToSuppliers(ctx.db, orgId),
    countDeliveriesBetween(ctx.db, orgId, from, to),
    ctx.db
      .selectFrom('supplier_payments')
      .where('org_id', '=', orgId)
      .where('paid_at', '>=', from)
      .where('paid_at', '<', to)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('sum'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total_suppliers: Number(counts.total),
    active_suppliers: Number(counts.active ?? 0),
    total_outstanding: fromCents(Number(owed.owed)),
    deliveries_this_month: Number(deliveries.n),
    payments_this_month: fromCents(Number(paid.sum)),
  };
}
