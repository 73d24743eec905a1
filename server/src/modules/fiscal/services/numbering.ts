/**
 * Numbering fiscal receipts, inside the sale's own transaction: each paid or credit sale of a
 * fiscalising store takes the device's next global counter (GC), the day's next daily counter (DC,
 * from 1 after midnight EAT) and the receipt's date and time, in commit order. The store row is
 * already locked by the sale (sale-inputs.ts), so two sales can never take one number and a
 * rolled-back sale gives its number back: the counters are gapless by construction (TRA rules
 * 6–11). Sending happens after commit (queue.ts); the sale never waits for TRA.
 */
import { newId } from '@duka/shared';
import { afterCommit } from '../../../db/transaction.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { findDevice, registrationOf, verifyUrl } from '../fiscal.queries.js';
import { EAT, zNumber } from './receipt-xml.js';
import { localTime } from '../../../lib/time.js';

/** The receipts numbered, by sale id (none when the store's device is off or unregistered). */
export async function numberFiscalReceipts(
  tx: ServiceContext,
  storeId: string,
  sales: TransactionRow[],
): Promise<Map<string, FiscalReceiptRow>> {
  if (!sales.length) return new Map();
  // The sales were just written by this organisation's transaction: they name it.
  const orgId = sales[0]!.org_id;
  const device = await findDevice(tx.db, { orgId, storeId });
  const registration = device && registrationOf(device);
  if (!device || device.enabled !== 1 || !registration) return new Map();
  const now = tx.clock.now();
  const znum = zNumber(now);
  let gc = Number(device.last_gc);
  let dc = device.last_znum === znum ? Number(device.last_dc) : 0;
  const rows = sales.map((sale): FiscalReceiptRow => {
    gc += 1;
    dc += 1;
    const rctvnum = `${registration.receipt_code}${gc}`;
    return {
      id: newId(),
      org_id: sale.org_id,
      store_id: storeId,
      transaction_id: sale.id,
      gc,
      dc,
      znum,
      issued_at: now,
      rctvnum,
      verify_url: verifyUrl(tx.config, device.environment, rctvnum, localTime(now, EAT)),
      status: 'pending',
      body: null,
      figures: null,
      attempts: 0,
      next_attempt_at: null,
      last_error: null,
      ack_code: null,
      acknowledged_at: null,
      created_at: now,
    };
  });
  await tx.db.insertInto('fiscal_receipts').values(rows).execute();
  await tx.db
    .updateTable('fiscal_devices')
    .set({ last_gc: gc, last_dc: dc, last_znum: znum, updated_at: now })
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .execute();
  // Not awaited: after-commit tasks hold the sale's answer, and TRA may be slow or down.
  afterCommit(tx, () => void tx.fiscal.kick(orgId, storeId));
  return new Map(rows.map((r) => [r.transaction_id, r]));
}
