import { fromCents } from '@duka/shared';
import type { Delivery, DeliveryStatus, Supplier, SupplierPayment, SupplierStatus } from '@duka/shared';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import type { DeliveryRow, SupplierPaymentRow, SupplierRow } from '../../db/tables/suppliers.table.js';

/** Statuses of a delivery whose goods arrived: only these are owed. */
export const ARRIVED = ['delivered', 'partial'] as const;

type DeliveriesEb = ExpressionBuilder<Database, 'deliveries'>;

/** The delivery is still owed on: arrived, not marked paid, not deleted. */
export const owing = (eb: DeliveriesEb) =>
  eb.and([eb('deliveries.status', 'in', ARRIVED), eb('deliveries.is_paid', '=', 0), eb('deliveries.deleted_at', 'is', null)]);

/** What one delivery still owes in cents (0 unless owing). */
export const owedCents = (d: Pick<DeliveryRow, 'status' | 'is_paid' | 'deleted_at' | 'total_value' | 'paid_amount'>): number =>
  (ARRIVED as readonly string[]).includes(d.status) && d.is_paid === 0 && d.deleted_at === null
    ? Math.max(0, Number(d.total_value) - Number(d.paid_amount))
    : 0;

/** A supplier's outstanding balance in cents, as a correlated subquery over its owing deliveries. */
export function outstandingOf(eb: ExpressionBuilder<Database, 'suppliers'>) {
  return eb
    .selectFrom('deliveries')
    .select((d) => d.fn.coalesce(d.fn.sum<number>(d('deliveries.total_value', '-', d.ref('deliveries.paid_amount'))), d.lit(0)).as('owed'))
    .whereRef('deliveries.supplier_id', '=', 'suppliers.id')
    .where(owing);
}

/** Suppliers of `orgId` not deleted, with `outstanding` (cents). */
export function suppliersWithBalance(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('suppliers')
    .selectAll('suppliers')
    .select((eb) => outstandingOf(eb).as('outstanding'))
    .where('suppliers.org_id', '=', orgId)
    .where('suppliers.deleted_at', 'is', null);
}

export type SupplierWithBalanceRow = SupplierRow & { outstanding: number | string | null };

export function findSupplier(db: Kysely<Database>, orgId: string, id: string): Promise<SupplierWithBalanceRow | undefined> {
  return suppliersWithBalance(db, orgId).where('suppliers.id', '=', id).executeTakeFirst();
}

export function toSupplier(row: SupplierWithBalanceRow): Supplier {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    rep: row.rep,
    phone: row.phone,
    email: row.email,
    address: row.address,
    payment_terms: row.payment_terms,
    status: row.status as SupplierStatus,
    notes: row.notes,
    outstanding_balance: fromCents(Number(row.outstanding ?? 0)),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** Deliveries of `storeId` not deleted, with their supplier's name. */
export function storeDeliveries(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('deliveries')
    .innerJoin('suppliers', 'suppliers.id', 'deliveries.supplier_id')
    .selectAll('deliveries')
    .select('suppliers.name as supplier_name')
    .where('deliveries.store_id', '=', storeId)
    .where('deliveries.deleted_at', 'is', null);
}

export type DeliveryWithSupplierRow = DeliveryRow & { supplier_name: string };

export function findDelivery(db: Kysely<Database>, storeId: string, id: string): Promise<DeliveryWithSupplierRow | undefined> {
  return storeDeliveries(db, storeId).where('deliveries.id', '=', id).executeTakeFirst();
}

export interface LineWithName {
  id: string;
  delivery_id: string;
  product_id: string;
  /** Null once the product was deleted. */
  product_name: string | null;
  qty: number;
  unit_cost: number;
  update_cost: number;
  lot_number: string | null;
  expiry_date: string | null;
  /** Null once the product was deleted. */
  track_batches: number | null;
}

export function linesOf(db: Kysely<Database>, deliveryIds: string[]): Promise<LineWithName[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('delivery_lines')
    .leftJoin('products', 'products.id', 'delivery_lines.product_id')
    .selectAll('delivery_lines')
    .select(['products.name as product_name', 'products.track_batches'])
    .where('delivery_lines.delivery_id', 'in', deliveryIds)
    .orderBy('delivery_lines.delivery_id')
    .orderBy('delivery_lines.id')
    .execute();
}

export async function toDeliveries(db: Kysely<Database>, rows: DeliveryWithSupplierRow[]): Promise<Delivery[]> {
  const lines = await linesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    supplier_id: row.supplier_id,
    supplier_name: row.supplier_name,
    store_id: row.store_id,
    invoice_number: row.invoice_number,
    delivery_date: iso(Number(row.delivery_date)),
    items_count: Number(row.items_count),
    total_value: fromCents(Number(row.total_value)),
    paid_amount: fromCents(Number(row.paid_amount)),
    balance: fromCents(owedCents(row)),
    status: row.status as DeliveryStatus,
    is_paid: row.is_paid === 1,
    notes: row.notes,
    lines: lines
      .filter((l) => l.delivery_id === row.id)
      .map((l) => ({
        id: l.id,
        product_id: l.product_id,
        product_name: l.product_name ?? '(deleted product)',
        qty: Number(l.qty),
        unit_cost: fromCents(Number(l.unit_cost)),
        update_cost: l.update_cost === 1,
        lot_number: l.lot_number,
        expiry_date: l.expiry_date,
      })),
    stock_added_at: isoOrNull(row.stock_added_at === null ? null : Number(row.stock_added_at)),
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  }));
}

/** Payments of `orgId` with the supplier's name, newest first. */
export function orgPayments(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('supplier_payments')
    .innerJoin('suppliers', 'suppliers.id', 'supplier_payments.supplier_id')
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
        .innerJoin('deliveries', 'deliveries.id', 'supplier_payment_allocations.delivery_id')
        .select([
          'supplier_payment_allocations.payment_id',
          'supplier_payment_allocations.delivery_id',
          'supplier_payment_allocations.amount',
        ])
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
