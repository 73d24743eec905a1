/**
 * A dispensed lot is recorded once (issue 39): the ledger's dispensing line (`batch_movements`,
 * kind `dispensed`) is the sale's lot record, and `transaction_line_batches` goes. The line gains
 * `lot_number` and `expiry_date` as sold (a lot's number and expiry can be corrected later; a
 * receipt prints what was sold); the units a sale took from the lot are its `-qty`.
 *
 * Existing rows move over exactly: every sale-lot row has the dispensing line its sale wrote with
 * it (same organisation, sale and batch, written together), which takes its lot and expiry. The
 * migration refuses, before anything is dropped, when a sale-lot row has no such line or their
 * units differ. A new index finds a sale's lines (receipts, refunds, prescriptions, sync pull).
 *
 * Re-runnable on SQLite (each step checks what an earlier run left). `down` rebuilds the table as
 * migration 0031 left it and refills it from the dispensing lines. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, sql, t } from './_helpers.js';

const LOTS = 'transaction_line_batches';
const INDEX = 'ix__batch_movements__org_id_transaction_id';

async function columnsOf(db: Kysely<any>, table: string): Promise<string[] | undefined> {
  const tables = await db.introspection.getTables();
  return tables.find((x) => x.name === table)?.columns.map((c) => c.name);
}

export async function up(db: Kysely<any>): Promise<void> {
  const ledger = (await columnsOf(db, 'batch_movements'))!;
  for (const column of ['lot_number', 'expiry_date'])
    if (!ledger.includes(column)) await db.schema.alterTable('batch_movements').addColumn(column, t.text).execute();

  if (await columnsOf(db, LOTS)) {
    // Per sale and batch, the units of its sale-lot rows against those its dispensing lines took.
    const { rows: unmatched } = await sql<{ n: number }>`select count(*) as n from (
        select l.org_id, l.transaction_id, l.batch_id, sum(l.qty) as qty from ${sql.table(LOTS)} l
        group by l.org_id, l.transaction_id, l.batch_id) l
      where l.qty <> coalesce((select -sum(m.qty) from batch_movements m where m.org_id = l.org_id
        and m.transaction_id = l.transaction_id and m.batch_id = l.batch_id and m.kind = 'dispensed'), 0)`.execute(db);
    if (Number(unmatched[0]!.n) > 0)
      throw new Error(`${unmatched[0]!.n} sale lots have no dispensing line of the same units: nothing was moved`);
    const asSold = (column: string) =>
      sql`(select l.${sql.ref(column)} from ${sql.table(LOTS)} l where l.org_id = batch_movements.org_id
        and l.transaction_id = batch_movements.transaction_id and l.batch_id = batch_movements.batch_id
        order by l.id limit 1)`;
    await sql`update batch_movements set lot_number = ${asSold('lot_number')}, expiry_date = ${asSold('expiry_date')}
      where kind = 'dispensed' and transaction_id is not null and lot_number is null`.execute(db);
    await db.schema.dropTable(LOTS).execute();
  }
  // A sale's lines only: deliveries, counts and recalls never look a line up by sale.
  await db.schema
    .createIndex(INDEX)
    .ifNotExists()
    .on('batch_movements')
    .columns(['org_id', 'transaction_id'])
    .where(sql.ref('transaction_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(LOTS)
    .ifNotExists()
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('transaction_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('batch_id', t.id, (c) => c.notNull())
    .addColumn('lot_number', t.text, (c) => c.notNull())
    .addColumn('expiry_date', t.text, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addPrimaryKeyConstraint(`${LOTS}_pkey`, ['org_id', 'id'])
    .execute();
  await db.schema.createIndex(`ix__${LOTS}__transaction_id`).ifNotExists().on(LOTS).column('transaction_id').execute();
  await db.schema.createIndex(`ix__${LOTS}__batch_id`).ifNotExists().on(LOTS).column('batch_id').execute();
  await sql`insert into ${sql.table(LOTS)} (id, transaction_id, product_id, batch_id, lot_number, expiry_date, qty, org_id)
    select m.id, m.transaction_id, m.product_id, m.batch_id, m.lot_number, m.expiry_date, -m.qty, m.org_id from batch_movements m
    where m.kind = 'dispensed' and m.transaction_id is not null and m.lot_number is not null
      and not exists (select 1 from ${sql.table(LOTS)} l where l.org_id = m.org_id and l.id = m.id)`.execute(db);
  await addForeignKey(db, LOTS, `fk__${LOTS}__batch_id`, ['org_id', 'batch_id'], 'batches', ['org_id', 'id']);
  await addForeignKey(db, LOTS, `fk__${LOTS}__transaction_id`, ['org_id', 'transaction_id'], 'transactions', ['org_id', 'id']);
  await db.schema.dropIndex(INDEX).ifExists().execute();
  for (const column of ['lot_number', 'expiry_date']) await db.schema.alterTable('batch_movements').dropColumn(column).execute();
}
