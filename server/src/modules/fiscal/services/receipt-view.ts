/**
 * A fiscal receipt as the API shows it. Its QR code (the verification link, drawn with the best of
 * 8 masks: about 0.6 ms of the event loop) is not drawn for the sale's own answer, where it halved
 * a fiscalising store's sales per second (issue 39), but when the sale is read: GET, lists and the
 * tills' pulls, which is where a receipt is printed from.
 */
import type { TransactionFiscal } from '@duka/shared';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { Database } from '../../../db/database.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import { receiptsOfSales } from '../fiscal.queries.js';

/**
 * QR codes drawn lately, by link: a new sale is read by every till of its store, and again when TRA
 * acknowledges it. Bounded (a data URL is about 2.7 kB): 2,000 of them, about 5 MB.
 */
const drawn = new Map<string, string>();
const DRAWN_MAX = 2_000;

/** The QR code printed on the receipt: its verification link, as an SVG data URL. */
export async function qrDataUrl(link: string): Promise<string> {
  const hit = drawn.get(link);
  if (hit !== undefined) {
    // Most recently used last, so the oldest is dropped first.
    drawn.delete(link);
    drawn.set(link, hit);
    return hit;
  }
  const svg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  const url = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  drawn.set(link, url);
  if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
  return url;
}

/** `qr`: the receipt's QR code, or null in the sale's own answer (drawn when the sale is read). */
export function toFiscal(row: FiscalReceiptRow, qr: string | null): TransactionFiscal {
  return {
    status: row.status,
    rctvnum: row.rctvnum,
    gc: Number(row.gc),
    dc: row.dc,
    issued_at: iso(row.issued_at),
    verify_url: row.verify_url,
    qr,
    acknowledged_at: isoOrNull(row.acknowledged_at),
  };
}

/** The fiscal receipts of these sales (as read, each naming its organisation), by transaction id, QR codes drawn. */
export async function fiscalByTransaction(
  db: Kysely<Database>,
  sales: ReadonlyArray<{ id: string; org_id: string }>,
): Promise<Map<string, TransactionFiscal>> {
  const rows = await receiptsOfSales(db, sales);
  return new Map(await Promise.all(rows.map(async (r) => [r.transaction_id, toFiscal(r, await qrDataUrl(r.verify_url))] as const)));
}
