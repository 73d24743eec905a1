/**
 * Numbering fiscal receipts, inside the sale's own transaction: each paid or credit sale of a
 * fiscalising store takes the device's next global counter (GC), the day's next daily counter (DC,
 * from 1 after midnight EAT) and the receipt's date and time, in commit order. The store row is
 * already locked by the sale (pos/sale/load-sale-set.ts), so two sales can never take one number and a
 * rolled-back sale gives its number back: the counters are gapless by construction (TRA rules
 * 6–11). Sending happens after commit (queue.ts); the sale never waits for TRA. The device is
 * read by the statement that moves its counters on: two statements a fiscal sale (or batch), the
 * counters and the receipts.
 */
import { newId } from '@duka/shared';
import { afterCommit } from '../../../db/transaction.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { registrationOf, takeCounters, verifyUrl } from '../fiscal.queries.js';
import { zNumber } from './receipt-xml.js';
import { EAT, localTime } from '../../../lib/time.js';

/** The receipts numbered, by sale id (none when the store's device is off or unregistered). */
export async function numberFiscalReceipts(
  tx: ServiceContext,
  storeId: string,
  sales: TransactionRow[],
): Promise<Map<string, FiscalReceiptRow>> {
  if (!sales.length) return new Map();
  // The sales were just written by this organisation's transaction: they name it.
  const orgId = sales[0]!.org_id;
  const now = tx.clock.now();
  const znum = zNumber(now);
  const taken = await takeCounters(tx.db, { orgId, storeId }, sales.length, { znum, now });
  const registration = taken && registrationOf(taken);
  if (!taken || !registration) return new Map();
  // The counters as they were before these sales: the update answered them moved on by every sale.
  let gc = Number(taken.last_gc) - sales.length;
  let dc = Number(taken.last_dc) - sales.length;
  // Every receipt of the batch is issued at the same instant: one time of day for all of their links.
  const time = localTime(now, EAT);
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
      verify_url: verifyUrl(tx.config, taken.environment, rctvnum, time),
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
  // Not awaited: after-commit tasks hold the sale's answer, and TRA may be slow or down.
  afterCommit(tx, () => void tx.fiscal.kick(orgId, storeId));
  return new Map(rows.map((r) => [r.transaction_id, r]));
}
