/** Reading a store's fiscal device and receipts, and showing a receipt as the API does. */
import type { FiscalEnvironment, TransactionFiscal } from '@duka/shared';
import { type Kysely, sql } from 'kysely';
import QRCode from 'qrcode';
import type { Database } from '../../db/database.js';
import type { FiscalDeviceRow, FiscalReceiptRow } from '../../db/tables/fiscal.table.js';
import type { Config } from '../../env.js';
import { iso, isoOrNull } from '../../lib/clock.js';

export const findDevice = (db: Kysely<Database>, storeId: string) =>
  db.selectFrom('fiscal_devices').selectAll().where('store_id', '=', storeId).executeTakeFirst();

/**
 * The registered devices the 30 s job has something to do for: a receipt or Z report not yet
 * acknowledged, or a finished day (before `openDay`, a YYYY-MM-DD in EAT) without its Z report.
 * A switched-off device is due only the days up to its last receipt. Z reports go in order, so an
 * unacknowledged one is always the newest, and the newest's znum says which days are reported.
 */
export function devicesWithWork(db: Kysely<Database>, openDay: string, dayBefore: string) {
  const [today, yesterday] = [openDay.replaceAll('-', ''), dayBefore.replaceAll('-', '')];
  const newestZ = sql`(select z.status from fiscal_z_reports z where z.store_id = d.store_id order by z.znum desc limit 1)`;
  const reportedTo = sql`coalesce((select max(z.znum) from fiscal_z_reports z where z.store_id = d.store_id), '')`;
  const dueTo = sql`case when d.enabled = 1 or d.last_znum > ${yesterday} then ${yesterday} else d.last_znum end`;
  return db
    .selectFrom('fiscal_devices as d')
    .select(['d.store_id', 'd.org_id', 'd.stuck_notified_at'])
    .where('d.registration', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb.selectFrom('fiscal_receipts as r').select('r.id').whereRef('r.store_id', '=', 'd.store_id').where('r.status', '!=', 'issued'),
        ),
        eb(newestZ, '!=', 'issued'),
        eb.and([
          eb.exists(
            eb.selectFrom('fiscal_receipts as r').select('r.id').whereRef('r.store_id', '=', 'd.store_id').where('r.znum', '<', today),
          ),
          eb(reportedTo, '<', dueTo),
        ]),
      ]),
    )
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

export function registrationOf(device: FiscalDeviceRow): DeviceRegistration | null {
  return device.registration ? (JSON.parse(device.registration) as DeviceRegistration) : null;
}

export const apiBase = (config: Config, env: FiscalEnvironment) =>
  (env === 'production' ? config.TRA_PRODUCTION_URL : config.TRA_TEST_URL).replace(/\/+$/, '');

/** TRA's verification page for a receipt: `{page}{RCTVNUM}_{HHMMSS}` (docs/fiscal-wire.md §5). */
export function verifyUrl(config: Config, env: FiscalEnvironment, rctvnum: string, time: string): string {
  const page = env === 'production' ? config.TRA_PRODUCTION_VERIFY_URL : config.TRA_TEST_VERIFY_URL;
  return `${page.endsWith('/') ? page : `${page}/`}${rctvnum}_${time.replaceAll(':', '')}`;
}

/** The QR code printed on the receipt: its verification link, as an SVG data URL. */
export async function qrDataUrl(link: string): Promise<string> {
  const svg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

export async function toFiscal(row: FiscalReceiptRow): Promise<TransactionFiscal> {
  return {
    status: row.status,
    rctvnum: row.rctvnum,
    gc: Number(row.gc),
    dc: row.dc,
    issued_at: iso(row.issued_at),
    verify_url: row.verify_url,
    // Drawn when shown (about 0.6 ms), not stored: a few kilobytes a receipt, read once or twice.
    qr: await qrDataUrl(row.verify_url),
    acknowledged_at: isoOrNull(row.acknowledged_at),
  };
}

/** The fiscal receipts of these sales, by transaction id. */
export async function fiscalByTransaction(db: Kysely<Database>, transactionIds: string[]): Promise<Map<string, TransactionFiscal>> {
  if (!transactionIds.length) return new Map();
  const rows = await db.selectFrom('fiscal_receipts').selectAll().where('transaction_id', 'in', transactionIds).execute();
  return new Map(await Promise.all(rows.map(async (r) => [r.transaction_id, await toFiscal(r)] as const)));
}
