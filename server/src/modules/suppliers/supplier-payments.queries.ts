/** Money paid to suppliers: the payments with their allocations, and the owing deliveries a payment is spread over. */
import { fromCents } from '@duka/shared';
import type { SupplierPayment } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { iso } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';
import type { SupplierPaymentRow } from '../../db/tables/suppliers.table.js';
import { owing } from './suppliers.queries.js';

/** Payments of `orgId` with the supplier's name, newest first. */
export function orgPayments(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('supplier_payments')
    .innerJoin('suppliers', (j) =>
      j.onRef('suppliers.id', '=', 'supplier_payments.supplier_id').onRef('suppliers.org_id', '=', 'supplier_payments.org_id'),
    )
    .selectAll('supplier_payments')
    .select('suppliers.name as supplier_name')
    .where('supplier_payments.org_id', '=', orgId);
}

export async function toPayments(
  db: Kysely<Database>,
  rows: Array<SupplierPaymentRow & { supplier_name: string }>,
): Promise<SupplierPayment[]> {
  const allocations = rows.length
    ? await db
        .selectFrom('supplier_payment_allocations')
        .innerJoin('deliveries', (j) =>
          j
            .onRef('deliveries.id', '=', 'supplier_payment_allocations.delivery_id')
            .onRef('deliveries.org_id', '=', 'supplier_payment_allocations.org_id'),
        )
        .select([
          'supplier_payment_allocations.payment_id',
          'supplier_payment_allocations.delivery_id',
          'supplier_payment_allocations.amount',
        ])
        .where('supplier_payment_allocations.org_id', 'in', [...new Set(rows.map((r) => r.org_id))])
        .where(
          'supplier_payment_allocations.payment_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('deliveries.delivery_date')
        .orderBy('deliveries.id')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    supplier_id: row.supplier_id,
    supplier_name: row.supplier_name,
    delivery_id: row.delivery_id,
    store_id: row.store_id,
    amount: fromCents(Number(row.amount)),
    payment_method: row.payment_method as SupplierPayment['payment_method'],
    reference: row.reference,
    notes: row.notes,
    paid_at: iso(Number(row.paid_at)),
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
    allocations: allocations
      .filter((a) => a.payment_id === row.id)
      .map((a) => ({ delivery_id: a.delivery_id, amount: fromCents(Number(a.amount)) })),
  }));
}

/** A new payment to a supplier, paid and recorded at `now`. */
export async function insertSupplierPayment(
  db: Kysely<Database>,
  p: Omit<SupplierPaymentRow, 'paid_at' | 'created_at'>,
  now: number,
): Promise<void> {
  await db
    .insertInto('supplier_payments')
    .values({
      id: p.id,
      org_id: p.org_id,
      store_id: p.store_id,
      supplier_id: p.supplier_id,
      delivery_id: p.delivery_id,
      amount: p.amount,
      payment_method: p.payment_method,
      reference: p.reference,
      notes: p.notes,
      paid_at: now,
      created_by: p.created_by,
      created_at: now,
    })
    .execute();
}

/** Delivery `deliveryId` of the store, not deleted, with its supplier's name, locked until the transaction ends (Postgres). */
export function lockDeliveryToPay(ctx: ServiceContext, scope: { orgId: string; storeId: string }, deliveryId: string) {
  return forUpdate(
    ctx.dialect,
    ctx.db
      .selectFrom('deliveries')
      .innerJoin('suppliers', (j) =>
        j.onRef('suppliers.id', '=', 'deliveries.supplier_id').onRef('suppliers.org_id', '=', 'deliveries.org_id'),
      )
      .selectAll('deliveries')
      .select('suppliers.name as supplier_name')
      .where('deliveries.org_id', '=', scope.orgId)
      .where('deliveries.id', '=', deliveryId)
      .where('deliveries.store_id', '=', scope.storeId)
      .where('deliveries.deleted_at', 'is', null),
  ).executeTakeFirst();
}

/**
 * The supplier's owing deliveries over every store, oldest first (the order a payment against its
 * balance is spread in), locked until the transaction ends (Postgres).
 */
export function lockOwingDeliveries(ctx: ServiceContext, orgId: string, supplierId: string) {
  return forUpdate(
    ctx.dialect,
    ctx.db
      .selectFrom('deliveries')
      .selectAll()
      .where('deliveries.org_id', '=', orgId)
      .where('deliveries.supplier_id', '=', supplierId)
      .where(owing)
      .orderBy('deliveries.delivery_date')
      .orderBy('deliveries.id'),
  ).execute();
}
