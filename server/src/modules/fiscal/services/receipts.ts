/**
 * A numbered receipt's body, built once: the sale as recorded, each line's TRA tax code, the
 * counters it was numbered with, signed with the store's certificate. Written only where no body
 * is yet (a conditional update), so two workers can never produce two versions of one receipt.
 */
import { type TaxCode, taxCodeOf } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import type { FiscalDeviceRow, FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { groupBy } from '../../../lib/group-by.js';
import {
  deviceScope,
  linesWithTaxCode,
  markReceiptsIssued,
  registrationOf,
  salePartsOf,
  unbuiltReceipts,
  writeReceiptBodies,
} from '../fiscal.queries.js';
import { CertificateError, type SigningKey, signPayload } from '../tra/certificate.js';
import { envelope } from '../tra/xml.js';
import { signingKey } from './device-session.js';
import { receiptFigures, receiptPayload } from './receipt-xml.js';

/** At most this many a pass: the sending loop builds the next ones when it reaches them. */
const BUILD_BATCH = 200;

export async function buildPendingBodies(ctx: ServiceContext, device: FiscalDeviceRow): Promise<number> {
  const unbuilt = await unbuiltReceipts(ctx.db, deviceScope(device), BUILD_BATCH);
  if (!unbuilt.length) return 0;
  const registration = registrationOf(device)!;
  const issuer = { tin: device.tin, regid: registration.regid, efdSerial: registration.efd_serial };
  const key = await keyOrExplain(ctx, device, unbuilt[0]!);
  const ids = unbuilt.map((r) => r.transaction_id);
  const [sales, parts, lines, store] = await Promise.all([
    ctx.db.selectFrom('transactions').selectAll().where('org_id', '=', device.org_id).where('id', 'in', ids).execute(),
    salePartsOf(ctx.db, device.org_id, ids),
    linesWithTaxCode(ctx.db, device.org_id, ids),
    ctx.db
      .selectFrom('stores')
      .select('vat_enabled')
      .where('org_id', '=', device.org_id)
      .where('id', '=', device.store_id)
      .executeTakeFirstOrThrow(),
  ]);
  const saleById = new Map(sales.map((s) => [s.id, s]));
  const linesBySale = groupBy(lines, (l) => l.transaction_id);
  const partsBySale = groupBy(parts, (p) => p.transaction_id);
  const built = await Promise.all(
    unbuilt.map(async (receipt) => {
      const sale = saleById.get(receipt.transaction_id)!;
      const saleLines = (linesBySale.get(sale.id) ?? []).map((l) => ({
        ...l,
        unit: l.product_unit,
        taxCode: taxCodeOf({ tax_code: l.product_tax_code as TaxCode | null, tax_rate_bp: l.tax_rate }, store.vat_enabled === 1),
      }));
      const figures = receiptFigures(sale, saleLines, partsBySale.get(sale.id) ?? []);
      const payload = receiptPayload(issuer, receipt, sale, saleLines, figures);
      return { id: receipt.id, body: envelope(payload, await signPayload(key, payload)), figures: JSON.stringify(figures) };
    }),
  );
  // One commit for the lot; only where no body is yet, so there is never a second version.
  await withTransaction(ctx, (tx) => writeReceiptBodies(tx.db, device.org_id, built));
  return built.length;
}

/**
 * The store's signing key; when it no longer opens (a certificate replaced badly, or JWT_SECRET
 * changed so the sealed copy cannot be unsealed), the head of the queue says why, so the owner's
 * queue status and the stuck-queue notification name the cause instead of "no answer yet".
 */
async function keyOrExplain(ctx: ServiceContext, device: FiscalDeviceRow, head: FiscalReceiptRow): Promise<SigningKey> {
  try {
    return await signingKey(ctx, device);
  } catch (err) {
    const reason =
      err instanceof CertificateError
        ? err.message
        : 'certificate: the server cannot unseal the stored certificate (JWT_SECRET changed?): restore the previous JWT_SECRET, or save the certificate again';
    await ctx.db
      .updateTable('fiscal_receipts')
      .set({ last_error: reason })
      .where('org_id', '=', head.org_id)
      .where('id', '=', head.id)
      .execute();
    throw err;
  }
}

/** TRA acknowledged these receipts: marked in one transaction, and the sales' tills learn it through the change log. */
export async function markIssued(ctx: ServiceContext, acknowledged: Array<{ receipt: FiscalReceiptRow; attempts: number }>): Promise<void> {
  if (!acknowledged.length) return;
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    // One statement for those sent on the same attempt (nearly always all of them: the first).
    for (const [attempts, receipts] of groupBy(acknowledged, (a) => String(a.attempts))) {
      await markReceiptsIssued(
        tx.db,
        receipts[0]!.receipt.org_id,
        receipts.map((a) => a.receipt.id),
        { attempts: Number(attempts), now },
      );
    }
    for (const { receipt } of acknowledged)
      noteChange(tx, receipt.org_id, { entity: 'transaction', id: receipt.transaction_id, storeId: receipt.store_id });
  });
}
