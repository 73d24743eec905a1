/** A store's fiscal device, its queue of receipts and Z reports. */
import { type FiscalEnvironment, newId } from '@duka/shared';
import { type ExpressionBuilder, type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { FiscalDeviceRow, FiscalDeviceTable, FiscalReceiptRow } from '../../db/tables/fiscal.table.js';
import type { Config } from '../../env.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import { onPostgres } from '../../db/dialect.js';

/**
 * A receipt TRA acknowledged, written into the statement as a literal: the queue's waiting
 * receipts have a partial index of their own (migration 0051), and a plan made before the value is
 * known (a PostgreSQL generic plan) can take it only when the statement names the value. SQLite
 * matches a bound value too, re-planning if it changes.
 */
export const ISSUED = sql.lit<'issued'>('issued');

/** A store of an organisation: whose fiscal device, receipts and Z reports a statement reads. */
export interface StoreScope {
  orgId: string;
  storeId: string;
}

/** The store a device row belongs to. */
export const deviceScope = (device: Pick<FiscalDeviceRow, 'org_id' | 'store_id'>): StoreScope => ({
  orgId: device.org_id,
  storeId: device.store_id,
});

export const findDevice = (db: Kysely<Database>, s: StoreScope) =>
  db.selectFrom('fiscal_devices').selectAll().where('org_id', '=', s.orgId).where('store_id', '=', s.storeId).executeTakeFirst();

/** A device's settings as the owner saves them (the certificate and `enabled` only when given). */
export type DeviceSettings = Omit<Insertable<FiscalDeviceTable>, 'store_id' | 'org_id' | 'created_at'>;

/** A store's first settings: a device not yet registered, holding no certificate until `settings` brings one. */
export async function insertDevice(db: Kysely<Database>, storeId: string, orgId: string, now: number, settings: DeviceSettings) {
  await db
    .insertInto('fiscal_devices')
    .values({
      store_id: storeId,
      org_id: orgId,
      certificate_enc: null,
      certificate_password_enc: null,
      registration: null,
      credentials_enc: null,
      registered_at: null,
      token_enc: null,
      token_expires_at: null,
      last_znum: null,
      claimed_at: null,
      stuck_notified_at: null,
      created_at: now,
      ...settings,
    })
    .execute();
}

/** Keeps TRA's registration answer and sealed credentials on the device, only if it is not registered yet. */
export async function saveRegistration(
  db: Kysely<Database>,
  s: StoreScope,
  r: { registration: string; credentialsEnc: string; lastGc: number; now: number },
) {
  await db
    .updateTable('fiscal_devices')
    .set({
      registration: r.registration,
      credentials_enc: r.credentialsEnc,
      registered_at: r.now,
      last_gc: r.lastGc,
      updated_at: r.now,
    })
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('registration', 'is', null)
    .execute();
}

/**
 * Moves the store's device counters on by `count` receipts numbered on day `znum` (the daily counter
 * from 0 on a new day), when the device is switched on and registered, and answers the device as it
 * is after: its read and its update in one statement. Undefined when it does not fiscalise.
 */
export function takeCounters(db: Kysely<Database>, s: StoreScope, count: number, at: { znum: string; now: number }) {
  return db
    .updateTable('fiscal_devices')
    .set((eb) => ({
      last_gc: eb('last_gc', '+', count),
      last_dc: eb
        .case()
        .when('last_znum', '=', at.znum)
        .then(eb('last_dc', '+', count))
        .else(count)
        .end(),
      last_znum: at.znum,
      updated_at: at.now,
    }))
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('enabled', '=', 1)
    .where('registration', 'is not', null)
    .returning(['last_gc', 'last_dc', 'registration', 'environment'])
    .executeTakeFirst();
}

/**
 * Claims the store's device for this worker (its `claimed_at` set to `now`, the database's clock)
 * unless another holds it: free, or claimed more than `timeoutMs` ago. Undefined when another holds it.
 */
export function claimDevice(db: Kysely<Database>, s: StoreScope, now: RawBuilder<number>, timeoutMs: number) {
  return db
    .updateTable('fiscal_devices')
    .set({ claimed_at: now })
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('registration', 'is not', null)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', sql<number>`${now} - ${timeoutMs}`)]))
    .returning('claimed_at')
    .executeTakeFirst();
}

/** Renews the claim on the store's device stamped `stamp`, to `now`; undefined when it is no longer that claim. */
export function renewClaim(db: Kysely<Database>, s: StoreScope, stamp: number, now: RawBuilder<number>) {
  return db
    .updateTable('fiscal_devices')
    .set({ claimed_at: now })
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('claimed_at', '=', stamp)
    .returning('claimed_at')
    .executeTakeFirst();
}

/**
 * The registered devices the 30 s job has something to do for: a receipt or Z report not yet
 * acknowledged, or a finished day (before `openDay`, a YYYY-MM-DD in EAT) without its Z report.
 * A switched-off device is due only the days up to its last receipt. Z reports go in order, so an
 * unacknowledged one is always the newest, and the newest's znum says which days are reported.
 * A scan of every shop's devices: each device's receipts and Z reports are then read by its own
 * organisation.
 */
export function devicesWithWork(db: Kysely<Database>, openDay: string, dayBefore: string) {
  const [today, yesterday] = [openDay.replaceAll('-', ''), dayBefore.replaceAll('-', '')];
  const newestZ = sql`(select z.status from fiscal_z_reports z where z.org_id = d.org_id and z.store_id = d.store_id order by z.znum desc limit 1)`;
  const reportedTo = sql`coalesce((select max(z.znum) from fiscal_z_reports z where z.org_id = d.org_id and z.store_id = d.store_id), '')`;
  const dueTo = sql`case when d.enabled = 1 or d.last_znum > ${yesterday} then ${yesterday} else d.last_znum end`;
  return db
    .selectFrom('fiscal_devices as d')
    .select(['d.store_id', 'd.org_id', 'd.stuck_notified_at'])
    .where('d.registration', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('fiscal_receipts as r')
            .select('r.id')
            .whereRef('r.org_id', '=', 'd.org_id')
            .whereRef('r.store_id', '=', 'd.store_id')
            .where('r.status', '!=', ISSUED),
        ),
        eb(newestZ, '!=', 'issued'),
        eb.and([
          eb.exists(
            eb
              .selectFrom('fiscal_receipts as r')
              .select('r.id')
              .whereRef('r.org_id', '=', 'd.org_id')
              .whereRef('r.store_id', '=', 'd.store_id')
              .where('r.znum', '<', today),
          ),
          eb(reportedTo, '<', dueTo),
        ]),
      ]),
    )
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** The receipt the store's queue waits on (the first not yet acknowledged), with the columns asked for. */
export function firstWaitingReceipt<C extends keyof FiscalReceiptRow & string>(db: Kysely<Database>, s: StoreScope, columns: readonly C[]) {
  return db
    .selectFrom('fiscal_receipts')
    .select(columns)
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('status', '!=', ISSUED)
    .orderBy('gc')
    .limit(1)
    .executeTakeFirst();
}

/** The next `limit` receipts of the store's queue not yet acknowledged, in counter order. */
export function waitingReceipts(db: Kysely<Database>, s: StoreScope, limit: number) {
  return db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('status', '!=', ISSUED)
    .orderBy('gc')
    .limit(limit)
    .execute();
}

/** The next `limit` receipts of the store whose signed body is not built yet, in counter order. */
export function unbuiltReceipts(db: Kysely<Database>, s: StoreScope, limit: number) {
  return db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('body', 'is', null)
    .orderBy('gc')
    .limit(limit)
    .execute();
}

/**
 * Built bodies written in one statement (issue 53: one update a receipt was 200 a pass, each a
 * round trip on Postgres), each only where no body is yet, so there is never a second version.
 */
export async function writeReceiptBodies(
  db: Kysely<Database>,
  orgId: string,
  built: ReadonlyArray<{ id: string; body: string; figures: string }>,
): Promise<void> {
  if (!built.length) return;
  const rows = onPostgres(db)
    ? sql`select unnest(${built.map((b) => b.id)}::text[]) as id, unnest(${built.map((b) => b.body)}::text[]) as body, unnest(${built.map((b) => b.figures)}::text[]) as figures`
    : sql`select column1 as id, column2 as body, column3 as figures from (values ${sql.join(built.map((b) => sql`(${b.id}, ${b.body}, ${b.figures})`))})`;
  await sql`update fiscal_receipts set body = d.body, figures = d.figures from (${rows}) as d where fiscal_receipts.id = d.id and fiscal_receipts.org_id = ${orgId} and fiscal_receipts.body is null`.execute(
    db,
  );
}

/** These sales' lines (of `orgId`) with their product's TRA tax code (null when the product has none) and unit (the line's: it cannot change once sold). */
export function linesWithTaxCode(db: Kysely<Database>, orgId: string, transactionIds: string[]) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'l.product_id').onRef('p.org_id', '=', 'l.org_id'))
    .selectAll('l')
    .select(['p.tax_code as product_tax_code', 'p.unit as product_unit'])
    .where('l.org_id', '=', orgId)
    .where('l.transaction_id', 'in', transactionIds)
    .orderBy('l.id')
    .execute();
}

/** TRA acknowledged these receipts of `orgId`, each on its `attempts`th try. */
export async function markReceiptsIssued(db: Kysely<Database>, orgId: string, ids: string[], at: { attempts: number; now: number }) {
  await db
    .updateTable('fiscal_receipts')
    .set({ status: 'issued', attempts: at.attempts, ack_code: '0', last_error: null, next_attempt_at: null, acknowledged_at: at.now })
    .where('org_id', '=', orgId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Whether the outer query's sale (`transactions`) has a fiscal receipt: a flag a reader of many
 * sales selects with them, so `receiptsOfSales` runs only for the sales that have one.
 */
export const saleHasReceipt = (eb: ExpressionBuilder<Database, 'transactions'>) =>
  eb
    .exists(
      eb
        .selectFrom('fiscal_receipts as f')
        .select('f.id')
        .whereRef('f.org_id', '=', 'transactions.org_id')
        .whereRef('f.transaction_id', '=', 'transactions.id'),
    )
    .as('has_receipt');

/** The fiscal receipts of these sales (each naming its organisation). */
export function receiptsOfSales(db: Kysely<Database>, sales: ReadonlyArray<{ id: string; org_id: string }>) {
  if (!sales.length) return Promise.resolve([]);
  return db
    .selectFrom('fiscal_receipts')
    .selectAll()
    .where('org_id', 'in', [...new Set(sales.map((s) => s.org_id))])
    .where(
      'transaction_id',
      'in',
      sales.map((s) => s.id),
    )
    .execute();
}

/** The store's receipts not yet acknowledged, counted by status, with the oldest of each. */
export function waitingReceiptCounts(db: Kysely<Database>, s: StoreScope) {
  return db
    .selectFrom('fiscal_receipts')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('created_at').as('oldest')])
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('status', '!=', ISSUED)
    .groupBy('status')
    .execute();
}

/** The store's first Z report not yet acknowledged. */
export function firstWaitingZReport(db: Kysely<Database>, s: StoreScope) {
  return db
    .selectFrom('fiscal_z_reports')
    .select(['created_at', 'last_error'])
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('status', '!=', 'issued')
    .orderBy('znum')
    .limit(1)
    .executeTakeFirst();
}

/** The store's fiscalised sales refunded or voided within [from, to): a Z report's corrections and voids. */
export function salesReversedBetween(db: Kysely<Database>, s: StoreScope, from: number, to: number) {
  return db
    .selectFrom('fiscal_receipts as f')
    .innerJoin('transactions as t', (j) => j.onRef('t.id', '=', 'f.transaction_id').onRef('t.org_id', '=', 'f.org_id'))
    .select(['t.status', 't.total', 't.refunded_at', 't.voided_at'])
    .where('f.org_id', '=', s.orgId)
    .where('f.store_id', '=', s.storeId)
    .where((eb) =>
      eb.or([
        eb.and([eb('t.refunded_at', '>=', from), eb('t.refunded_at', '<', to)]),
        eb.and([eb('t.voided_at', '>=', from), eb('t.voided_at', '<', to)]),
      ]),
    )
    .execute();
}

/** The store's Z reports not yet acknowledged, in day order. */
export function unacknowledgedZReports(db: Kysely<Database>, s: StoreScope) {
  return db
    .selectFrom('fiscal_z_reports')
    .selectAll()
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('status', '!=', 'issued')
    .orderBy('znum')
    .execute();
}

/** The store's newest `limit` Z reports, newest first. */
export function newestZReports(db: Kysely<Database>, s: StoreScope, limit: number) {
  return db
    .selectFrom('fiscal_z_reports')
    .selectAll()
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .orderBy('znum', 'desc')
    .limit(limit)
    .execute();
}

/** The store's last Z report: its day and figures. */
export function lastZReport(db: Kysely<Database>, s: StoreScope) {
  return db
    .selectFrom('fiscal_z_reports')
    .select(['znum', 'figures'])
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .orderBy('znum', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The day (znum) of the store's first receipt. */
export function firstReceiptDay(db: Kysely<Database>, s: StoreScope) {
  return db
    .selectFrom('fiscal_receipts')
    .select('znum')
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .orderBy('gc')
    .limit(1)
    .executeTakeFirst();
}

/** A finished day's Z report, signed, waiting to be sent. */
export async function insertZReport(
  db: Kysely<Database>,
  z: { orgId: string; storeId: string; znum: string; figures: string; body: string; now: number },
) {
  await db
    .insertInto('fiscal_z_reports')
    .values({
      id: newId(),
      org_id: z.orgId,
      store_id: z.storeId,
      znum: z.znum,
      figures: z.figures,
      body: z.body,
      next_attempt_at: null,
      last_error: null,
      ack_code: null,
      acknowledged_at: null,
      created_at: z.now,
    })
    .execute();
}

/** What the server keeps of TRA's registration answer (the credentials are sealed apart). */
export interface DeviceRegistration {
  regid: string;
  efd_serial: string;
  uin: string;
  /** The VRN TRA holds for the taxpayer (empty when not VAT-registered). */
  vrn: string;
  receipt_code: string;
  name: string;
  street: string;
  mobile: string;
  city: string;
  country: string;
  tax_office: string;
  tax_codes: Record<string, string>;
}

export function registrationOf(device: Pick<FiscalDeviceRow, 'registration'>): DeviceRegistration | null {
  return device.registration ? (JSON.parse(device.registration) as DeviceRegistration) : null;
}

export const apiBase = (config: Config, env: FiscalEnvironment) =>
  (env === 'production' ? config.TRA_PRODUCTION_URL : config.TRA_TEST_URL).replace(/\/+$/, '');

/** TRA's verification page for a receipt: `{page}{RCTVNUM}_{HHMMSS}` (docs/fiscal-wire.md §5). */
export function verifyUrl(config: Config, env: FiscalEnvironment, rctvnum: string, time: string): string {
  const page = env === 'production' ? config.TRA_PRODUCTION_VERIFY_URL : config.TRA_TEST_VERIFY_URL;
  return `${page.endsWith('/') ? page : `${page}/`}${rctvnum}_${time.replaceAll(':', '')}`;
}

/** The sales' payment parts (issue 51), in order: the receipt's PAYMENTS pairs. */
export function salePartsOf(db: Kysely<Database>, orgId: string, transactionIds: string[]) {
  return db
    .selectFrom('transaction_payments')
    .select(['transaction_id', 'method', 'amount'])
    .where('org_id', '=', orgId)
    .where('transaction_id', 'in', transactionIds)
    .orderBy('transaction_id')
    .orderBy('seq')
    .execute();
}
