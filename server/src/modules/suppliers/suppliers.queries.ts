/** The organisation's suppliers and what they are owed; deliveries.queries.ts and supplier-payments.queries.ts hold the rest. */
import { fromCents } from '@duka/shared';
import type { Supplier, SupplierStatus } from '@duka/shared';
import type { ExpressionBuilder, Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { DeliveryRow, SupplierRow, SupplierTable } from '../../db/tables/suppliers.table.js';

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
    .whereRef('deliveries.org_id', '=', 'suppliers.org_id')
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
    lead_time_days: row.lead_time_days,
    status: row.status as SupplierStatus,
    notes: row.notes,
    outstanding_balance: fromCents(Number(row.outstanding ?? 0)),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** A new supplier of `orgId`: the optional columns `fields` leaves out are null. */
export async function insertSupplier(
  db: Kysely<Database>,
  s: { id: string; orgId: string; name: string; fields: Updateable<SupplierTable>; now: number },
): Promise<void> {
  await db
    .insertInto('suppliers')
    .values({
      category: null,
      rep: null,
      phone: null,
      email: null,
      address: null,
      payment_terms: null,
      lead_time_days: null,
      notes: null,
      ...s.fields,
      id: s.id,
      org_id: s.orgId,
      name: s.name,
      created_at: s.now,
      updated_at: s.now,
      deleted_at: null,
    })
    .execute();
}

/** How many suppliers `orgId` has (not deleted), and how many of them are active. */
export function countSuppliers(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('suppliers')
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'active').then(1).else(0).end()).as('active'),
    ])
    .executeTakeFirstOrThrow();
}

/** What `orgId` still owes its suppliers (not deleted) over every store, in cents. */
export function owedToSuppliers(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('deliveries')
    .innerJoin('suppliers', (j) =>
      j.onRef('suppliers.id', '=', 'deliveries.supplier_id').onRef('suppliers.org_id', '=', 'deliveries.org_id'),
    )
    .where('deliveries.org_id', '=', orgId)
    .where('suppliers.deleted_at', 'is', null)
    .where(owing)
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number>(eb('deliveries.total_value', '-', eb.ref('deliveries.paid_amount'))), eb.lit(0)).as('owed'),
    )
    .executeTakeFirstOrThrow();
}

/** How many deliveries of `orgId` (not deleted, not cancelled) are dated in [from, to). */
export function countDeliveriesBetween(db: Kysely<Database>, orgId: string, from: number, to: number) {
  return db
    .selectFrom('deliveries')
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where('status', '!=', 'cancelled')
    .where('delivery_date', '>=', from)
    .where('delivery_date', '<', to)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
}
