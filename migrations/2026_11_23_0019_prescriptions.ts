/**
 * The prescription register (issue 14): one entry per sale of a prescription-only or controlled
 * medicine, written in the sale's transaction, and its items. Append-only: a correction is a new
 * entry whose `corrects_id` names the one it corrects, and an entry is corrected at most once
 * (the unique index), so the entries of one sale form a chain whose last link is current.
 *
 * The prescription's fields are null on an entry for an offline sale that came without one.
 * `dispensed_at` is the sale's time, copied onto corrections, so the register filters by the day
 * the medicine left the shop. The lots are not copied: they are read from the sale's
 * `transaction_line_batches`. Times epoch ms, dates `YYYY-MM-DD`. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('prescriptions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('transactions.id'))
    .addColumn('receipt_number', t.text, (c) => c.notNull())
    .addColumn('dispensed_at', t.big, (c) => c.notNull())
    .addColumn('patient_name', t.text)
    .addColumn('patient_age', t.int)
    .addColumn('patient_date_of_birth', t.text)
    .addColumn('patient_sex', t.text)
    .addColumn('prescriber_name', t.text)
    .addColumn('prescriber_registration_number', t.text)
    .addColumn('facility', t.text)
    .addColumn('date_written', t.text)
    .addColumn('corrects_id', t.id, (c) => c.references('prescriptions.id'))
    .addColumn('correction_reason', t.text)
    .addColumn('recorded_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'prescriptions', ['corrects_id']);
  await index(db, 'prescriptions', ['store_id', 'dispensed_at']);
  await index(db, 'prescriptions', ['transaction_id']);

  await db.schema
    .createTable('prescription_items')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('prescription_id', t.id, (c) => c.notNull().references('prescriptions.id'))
    .addColumn('position', t.int, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('product_name', t.text, (c) => c.notNull())
    .addColumn('generic_name', t.text)
    .addColumn('strength', t.text)
    .addColumn('dosage_form', t.text)
    .addColumn('schedule', t.text, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .execute();
  await index(db, 'prescription_items', ['prescription_id']);
  await index(db, 'prescription_items', ['product_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('prescription_items').execute();
  await db.schema.dropTable('prescriptions').execute();
}
