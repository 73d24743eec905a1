/** Reads and writes of the prescription register's tables, and its entries as the API answers them. */
import type { LineBatch, PrescriptionEntry, RecordedPrescription } from '@duka/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../../db/database.js';
import { containsText, type DialectName } from '../../../db/dialect.js';
import type {
  PrescriptionItemRow,
  PrescriptionItemTable,
  PrescriptionRow,
  PrescriptionTable,
} from '../../../db/tables/prescriptions.table.js';
import { iso } from '../../../lib/clock.js';
import { groupBy } from '../../../lib/group-by.js';
import { dispensedLots } from '../lots/sale-lots.queries.js';

export interface PrescriptionFilter {
  orgId: string;
  storeId: string;
  /** Dispensed at or after (epoch ms). */
  from?: number;
  /** Dispensed before (epoch ms). */
  to?: number;
  productId?: string;
  patient?: string;
  prescriber?: string;
}

// biome-ignore lint/complexity/noBannedTypes: `{}` is Kysely's own type for a query with nothing selected yet.
type EntryQuery = SelectQueryBuilder<Database, 'prescriptions', {}>;

export function filteredEntries(db: Kysely<Database>, dialect: DialectName, f: PrescriptionFilter): EntryQuery {
  let q: EntryQuery = db
    .selectFrom('prescriptions')
    .where('prescriptions.org_id', '=', f.orgId)
    .where('prescriptions.store_id', '=', f.storeId);
  if (f.from !== undefined) q = q.where('prescriptions.dispensed_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('prescriptions.dispensed_at', '<', f.to);
  if (f.productId) {
    const productId = f.productId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('prescription_items as i')
          .select('i.id')
          .whereRef('i.prescription_id', '=', 'prescriptions.id')
          .whereRef('i.org_id', '=', 'prescriptions.org_id')
          .where('i.product_id', '=', productId),
      ),
    );
  }
  if (f.patient) q = q.where(containsText(dialect, 'prescriptions.patient_name', f.patient));
  if (f.prescriber) {
    const text = f.prescriber;
    q = q.where((eb) =>
      eb.or([
        containsText(dialect, 'prescriptions.prescriber_name', text),
        containsText(dialect, 'prescriptions.prescriber_registration_number', text),
      ]),
    );
  }
  return q;
}

export function findStoreEntry(db: Kysely<Database>, scope: { orgId: string; storeId: string }, id: string) {
  return db
    .selectFrom('prescriptions')
    .selectAll()
    .where('org_id', '=', scope.orgId)
    .where('store_id', '=', scope.storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The entry correcting this one (as read), if any. */
export function findCorrection(db: Kysely<Database>, entry: { id: string; org_id: string }) {
  return db
    .selectFrom('prescriptions')
    .select('id')
    .where('org_id', '=', entry.org_id)
    .where('corrects_id', '=', entry.id)
    .executeTakeFirst();
}

export function entryItems(db: Kysely<Database>, entry: { id: string; org_id: string }) {
  return db
    .selectFrom('prescription_items')
    .selectAll()
    .where('org_id', '=', entry.org_id)
    .where('prescription_id', '=', entry.id)
    .orderBy('position')
    .execute();
}

/** Write an entry and its items (positions in the order given). */
export async function insertEntry(
  db: Kysely<Database>,
  entry: PrescriptionTable,
  items: Array<Omit<PrescriptionItemTable, 'prescription_id' | 'position'>>,
): Promise<void> {
  await db.insertInto('prescriptions').values(entry).execute();
  if (items.length)
    await db
      .insertInto('prescription_items')
      .values(items.map((it, position) => ({ ...it, prescription_id: entry.id, position })))
      .execute();
}

/** The register's columns of a prescription, null where it came without one. */
export function prescriptionColumns(rx: Partial<RecordedPrescription> | null | undefined) {
  return {
    patient_name: rx?.patient_name ?? null,
    patient_age: rx?.patient_age ?? null,
    patient_date_of_birth: rx?.patient_date_of_birth ?? null,
    patient_sex: rx?.patient_sex ?? null,
    prescriber_name: rx?.prescriber_name ?? null,
    prescriber_registration_number: rx?.prescriber_registration_number ?? null,
    facility: rx?.facility ?? null,
    date_written: rx?.date_written ?? null,
  };
}

/** An entry made for a sale that came without a prescription has none of these. */
function recorded(r: PrescriptionRow): RecordedPrescription | null {
  if (
    r.patient_name == null ||
    r.patient_sex == null ||
    r.prescriber_name == null ||
    r.prescriber_registration_number == null ||
    r.facility == null ||
    r.date_written == null
  )
    return null;
  return {
    patient_name: r.patient_name,
    patient_age: r.patient_age == null ? null : Number(r.patient_age),
    patient_date_of_birth: r.patient_date_of_birth,
    patient_sex: r.patient_sex,
    prescriber_name: r.prescriber_name,
    prescriber_registration_number: r.prescriber_registration_number,
    facility: r.facility,
    date_written: r.date_written,
  };
}

/** Entries as the API answers them, in the order given: items, their lots and the sale's status (read from the sale now), who corrected each, who recorded it. */
export async function toEntries(db: Kysely<Database>, rows: PrescriptionRow[]): Promise<PrescriptionEntry[]> {
  if (!rows.length) return [];
  const orgIds = [...new Set(rows.map((r) => r.org_id))];
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.flatMap((r) => (r.recorded_by ? [r.recorded_by] : [])))];
  const saleIds = [...new Set(rows.map((r) => r.transaction_id))];
  const [items, lots, corrections, users, sales] = await Promise.all([
    db
      .selectFrom('prescription_items')
      .selectAll()
      .where('org_id', 'in', orgIds)
      .where('prescription_id', 'in', ids)
      .orderBy('position')
      .execute(),
    dispensedLots(db, orgIds, saleIds),
    db.selectFrom('prescriptions').select(['id', 'corrects_id']).where('org_id', 'in', orgIds).where('corrects_id', 'in', ids).execute(),
    userIds.length
      ? db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', userIds).execute()
      : Promise.resolve([]),
    db.selectFrom('transactions').select(['id', 'status']).where('org_id', 'in', orgIds).where('id', 'in', saleIds).execute(),
  ]);
  const statusOf = new Map(sales.map((s) => [s.id, s.status]));
  const itemsOf = groupBy(items, (i) => i.prescription_id);
  const lotsOf = groupBy(lots, (b) => `${b.transaction_id}|${b.product_id}`);
  const correctedBy = new Map(corrections.map((c) => [c.corrects_id!, c.id]));
  const names = new Map(users.map((u) => [u.id, `${u.first_name} ${u.last_name ?? ''}`.trim()]));
  return rows.map((r) => ({
    id: r.id,
    store_id: r.store_id,
    transaction_id: r.transaction_id,
    receipt_number: r.receipt_number,
    sale_status: statusOf.get(r.transaction_id)!,
    dispensed_at: iso(Number(r.dispensed_at)),
    prescription: recorded(r),
    items: (itemsOf.get(r.id) ?? []).map((i: PrescriptionItemRow) => ({
      product_id: i.product_id,
      product_name: i.product_name,
      generic_name: i.generic_name,
      strength: i.strength,
      dosage_form: i.dosage_form,
      schedule: i.schedule,
      qty: Number(i.qty),
      lots: (lotsOf.get(`${r.transaction_id}|${i.product_id}`) ?? []).map(
        (b): LineBatch => ({ batch_id: b.batch_id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty: Number(b.qty) }),
      ),
    })),
    corrects_id: r.corrects_id,
    correction_reason: r.correction_reason,
    corrected_by_id: correctedBy.get(r.id) ?? null,
    recorded_by_id: r.recorded_by,
    recorded_by_name: r.recorded_by ? (names.get(r.recorded_by) ?? null) : null,
    created_at: iso(Number(r.created_at)),
  }));
}
