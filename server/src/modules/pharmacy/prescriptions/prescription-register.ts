/**
 * The prescription register (issue 14): every sale with a `pom` or `controlled` line writes one
 * entry in the sale's transaction (`recordPrescriptionEntry`, called by `recordSale`). Entries are
 * never updated or deleted: a correction is a new entry pointing at the one it corrects, and an
 * entry is corrected once (correct the correction to change it again). The register is the
 * active store's, for the owner and staff holding the `pharmacy` permission.
 */
import {
  checkPrescription,
  type CorrectPrescriptionInput,
  type DrugSchedule,
  type ListPrescriptionsQuery,
  needsPrescription,
  newId,
  type PageMeta,
  type Prescription,
  type PrescriptionEntry,
  type PrescriptionsCsvQuery,
} from '@duka/shared';
import type { Readable } from 'node:stream';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { addDays, localDate, localTime, startOfLocalDay } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { writeCsv } from '../../reports/reports.exports.js';
import {
  entryItems,
  filteredEntries,
  findCorrection,
  findStoreEntry,
  insertEntry,
  prescriptionColumns,
  type PrescriptionFilter,
  toEntries,
} from './prescriptions.queries.js';
import { countedPage } from '../../../db/page.js';

/** Inside `recordSale`'s transaction: the sale's entry, when it dispensed a prescription medicine. */
export async function recordPrescriptionEntry(
  tx: ServiceContext,
  sale: {
    row: TransactionRow;
    lines: ReadonlyArray<{ product_id: string; qty: number }>;
    products: ReadonlyMap<string, ProductRow>;
    prescription?: Prescription | null;
  },
): Promise<void> {
  const items = sale.lines.flatMap((l) => {
    const p = sale.products.get(l.product_id);
    if (!p || !needsPrescription(p.schedule)) return [];
    return [
      {
        id: newId(),
        org_id: sale.row.org_id,
        product_id: p.id,
        product_name: p.name,
        generic_name: p.generic_name,
        strength: p.strength,
        dosage_form: p.dosage_form,
        schedule: p.schedule as DrugSchedule,
        qty: l.qty,
      },
    ];
  });
  if (!items.length) return;
  const { row } = sale;
  await insertEntry(
    tx.db,
    {
      id: newId(),
      org_id: row.org_id,
      store_id: row.store_id,
      transaction_id: row.id,
      receipt_number: row.receipt_number,
      dispensed_at: row.created_at,
      ...prescriptionColumns(sale.prescription),
      corrects_id: null,
      correction_reason: null,
      // Whoever rang the sale up dispensed it (the till's cashier for an offline sale).
      recorded_by: row.cashier_id,
      created_at: tx.clock.now(),
    },
    items,
  );
}

/** The query's local days as [from, to) instants; either end may be open. */
async function filterOf(
  ctx: AuthedContext,
  storeId: string,
  orgId: string,
  q: PrescriptionsCsvQuery,
): Promise<PrescriptionFilter & { tz: string }> {
  if (q.date_from && q.date_to && q.date_to < q.date_from) throw new ValidationError('date_to', 'must not be before date_from');
  const tz = await orgTimezone(ctx.db, orgId);
  return {
    tz,
    orgId,
    storeId,
    from: q.date_from ? startOfLocalDay(q.date_from, tz) : undefined,
    to: q.date_to ? startOfLocalDay(addDays(q.date_to, 1), tz) : undefined,
    productId: q.product_id,
    patient: q.patient,
    prescriber: q.prescriber,
  };
}

function registerScope(ctx: AuthedContext) {
  const scope = requireStore(ctx);
  requirePermission(ctx, 'pharmacy');
  return scope;
}

/** Newest dispensed first; a correction comes before the entry it corrects. */
export async function listPrescriptions(
  ctx: AuthedContext,
  q: ListPrescriptionsQuery,
): Promise<{ items: PrescriptionEntry[]; meta: PageMeta }> {
  const { orgId, storeId } = registerScope(ctx);
  const query = filteredEntries(ctx.db, ctx.dialect, await filterOf(ctx, storeId, orgId, q));
  const { rows, meta } = await countedPage(
    query,
    query.selectAll().orderBy('prescriptions.dispensed_at', 'desc').orderBy('prescriptions.id', 'desc'),
    q,
  );
  return { items: await toEntries(ctx.db, rows), meta };
}

export async function getPrescription(ctx: AuthedContext, id: string): Promise<PrescriptionEntry> {
  const row = await findStoreEntry(ctx.db, registerScope(ctx), id);
  if (!row) throw new NotFoundError('prescription');
  return (await toEntries(ctx.db, [row]))[0]!;
}

/**
 * A new entry with the corrected prescription and the corrected entry's sale and items. The
 * prescription meets the same rule as at the sale, dated against the day of the sale.
 */
export async function correctPrescription(ctx: AuthedContext, id: string, input: CorrectPrescriptionInput): Promise<PrescriptionEntry> {
  const { orgId, storeId } = registerScope(ctx);
  const created = await withTransaction(ctx, async (tx) => {
    const original = await findStoreEntry(tx.db, { orgId, storeId }, id);
    if (!original) throw new NotFoundError('prescription');
    const later = await findCorrection(tx.db, original);
    if (later) throw new InvalidStateError(`this entry was already corrected by entry ${later.id}: correct that one`);
    const today = localDate(Number(original.dispensed_at), await orgTimezone(tx.db, orgId));
    const breach = checkPrescription({ lines: [], prescription: input.prescription, today })[0];
    if (breach) throw new ValidationError(breach.field, breach.message);
    const items = await entryItems(tx.db, original);
    const entryId = newId();
    // The unique index on corrects_id refuses a second correction racing this one.
    await insertEntry(
      tx.db,
      {
        id: entryId,
        org_id: orgId,
        store_id: storeId,
        transaction_id: original.transaction_id,
        receipt_number: original.receipt_number,
        dispensed_at: original.dispensed_at,
        ...prescriptionColumns(input.prescription),
        corrects_id: original.id,
        correction_reason: input.reason,
        recorded_by: tx.actor.userId,
        created_at: tx.clock.now(),
      },
      items.map(({ id: _old, prescription_id: _p, position: _pos, ...item }) => ({ ...item, id: newId() })),
    );
    await recordAudit(tx, {
      action: 'pharmacy.prescription.correct',
      description: `Prescription for sale ${original.receipt_number} corrected: ${input.reason}`,
      entity: 'prescription',
      entityId: entryId,
    });
    return entryId;
  });
  return getPrescription(ctx, created);
}

const CSV_COLUMNS = [
  'entry_id',
  'date',
  'time',
  'receipt_number',
  'sale_status',
  'patient_name',
  'patient_age',
  'patient_date_of_birth',
  'patient_sex',
  'prescriber_name',
  'prescriber_registration_number',
  'facility',
  'date_written',
  'product',
  'generic_name',
  'strength',
  'dosage_form',
  'schedule',
  'qty',
  'lots',
  'corrects_id',
  'corrected_by_id',
  'correction_reason',
  'recorded_by',
] as const;
type CsvRow = Record<(typeof CSV_COLUMNS)[number], string | number>;
const CSV_PAGE = 200;

/** One row per item (the CSV writer defuses text a spreadsheet would run as a formula). */
function csvLines(e: PrescriptionEntry, tz: string): CsvRow[] {
  const text = (v: string | null | undefined) => v ?? '';
  const at = Date.parse(e.dispensed_at);
  const rx = e.prescription;
  const head = {
    entry_id: e.id,
    date: localDate(at, tz),
    time: localTime(at, tz),
    receipt_number: text(e.receipt_number),
    sale_status: e.sale_status,
    patient_name: text(rx?.patient_name),
    patient_age: rx?.patient_age ?? '',
    patient_date_of_birth: rx?.patient_date_of_birth ?? '',
    patient_sex: rx?.patient_sex ?? '',
    prescriber_name: text(rx?.prescriber_name),
    prescriber_registration_number: text(rx?.prescriber_registration_number),
    facility: text(rx?.facility),
    date_written: rx?.date_written ?? '',
  };
  const tail = {
    corrects_id: e.corrects_id ?? '',
    corrected_by_id: e.corrected_by_id ?? '',
    correction_reason: text(e.correction_reason),
    recorded_by: text(e.recorded_by_name),
  };
  return e.items.map((i) => ({
    ...head,
    product: text(i.product_name),
    generic_name: text(i.generic_name),
    strength: text(i.strength),
    dosage_form: i.dosage_form ?? '',
    schedule: i.schedule,
    qty: i.qty,
    lots: text(i.lots.map((b) => `${b.lot_number} exp ${b.expiry_date} x${b.qty}`).join('; ')),
    ...tail,
  }));
}

/** Every matching entry, oldest dispensed first (a correction right after what it corrects), in keyset pages. */
async function* csvRows(ctx: AuthedContext, f: PrescriptionFilter & { tz: string }): AsyncGenerator<CsvRow> {
  let after: { at: number; id: string } | undefined;
  for (;;) {
    let q = filteredEntries(ctx.db, ctx.dialect, f);
    if (after) {
      const { at, id } = after;
      q = q.where((eb) =>
        eb.or([
          eb('prescriptions.dispensed_at', '>', at),
          eb.and([eb('prescriptions.dispensed_at', '=', at), eb('prescriptions.id', '>', id)]),
        ]),
      );
    }
    const rows = await q.selectAll().orderBy('prescriptions.dispensed_at').orderBy('prescriptions.id').limit(CSV_PAGE).execute();
    for (const e of await toEntries(ctx.db, rows)) yield* csvLines(e, f.tz);
    if (rows.length < CSV_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { at: Number(last.dispensed_at), id: last.id };
  }
}

/** The register as CSV, streamed; the checks run before the first byte. */
export async function prescriptionsCsv(ctx: AuthedContext, q: PrescriptionsCsvQuery): Promise<{ fileName: string; body: Readable }> {
  const { orgId, storeId } = registerScope(ctx);
  const f = await filterOf(ctx, storeId, orgId, q);
  const { csv, feeding } = writeCsv(
    CSV_COLUMNS.map((key) => ({ key })),
    csvRows(ctx, f),
  );
  feeding.catch((err: unknown) => ctx.log.error({ err, requestId: ctx.requestId }, 'prescription register CSV failed'));
  const fileName = `prescription-register_${q.date_from ?? 'start'}_to_${q.date_to ?? localDate(ctx.clock.now(), f.tz)}.csv`;
  return { fileName, body: csv };
}
