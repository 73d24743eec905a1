/**
 * Stage `writeSale`: the planned sales (`planSale`), one sale or a pushed batch, written in a number
 * of statements that does not grow with the number of sales: the sales' own rows together
 * (write-rows.ts, one statement on Postgres), then what other areas keep of a sale: the batch
 * ledger, the prescription register, credit tabs and TRA fiscal numbers, each once for the set.
 * The steps run in this order and the statement log (test/pos/sale-statements.test.ts) holds them to it.
 */
import { noteChange } from '../../../db/change-log.js';
import { afterCommit } from '../../../db/transaction.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { AuthedContext } from '../../../lib/context.js';
import { openCreditTabs } from '../../credits/credits.exports.js';
import { numberFiscalReceipts } from '../../fiscal/fiscal.exports.js';
import { moveBatches, recordPrescriptionEntry } from '../../pharmacy/pharmacy.exports.js';
import type { SalePlan } from './sale-plan.js';
import type { SaleSet } from './sale-set.js';
import { writeRows } from './write-rows.js';

/** Returns the fiscal receipts the sales were numbered with, by sale id (none in a store that does not fiscalise). */
export async function writeSale(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<Map<string, FiscalReceiptRow>> {
  if (plans.length === 0) return new Map();
  const events = await writeRows(tx, set, plans);
  await moveLots(tx, set, plans);
  await writePrescriptions(tx, set, plans);
  await openTabs(tx, set, plans);
  for (const p of plans) noteChange(tx, set.orgId, { entity: 'transaction', id: p.row.id, storeId: set.storeId });
  const fiscal = await numberFiscal(tx, set, plans);
  // Told only now the set is written (they go out once the transaction commits).
  events.deliver();
  checkPaymentsLater(tx, set, plans);
  return fiscal;
}

/** The dispensing lines are the sale's lot records too (what receipts print and refunds return to). */
async function moveLots(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<void> {
  const moves = plans.flatMap((p) => p.moves);
  if (moves.length === 0) return;
  // The stock rows are already moved by writeRows: the ledger writes the lots only.
  await moveBatches(tx, moves, { productNames: new Map([...set.products].map(([id, p]) => [id, p.name])), applyStock: false });
}

/** A register entry per sale of a prescription medicine (few; the entry writes nothing for others). */
async function writePrescriptions(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<void> {
  for (const p of plans)
    await recordPrescriptionEntry(tx, { row: p.row, lines: p.merged, products: set.products, prescription: p.request.input.prescription });
}

/** The credit sales' tabs, in one write for the set (credits owns what a tab is). */
async function openTabs(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<void> {
  await openCreditTabs(
    tx,
    set.orgId,
    plans.flatMap((p) => (p.tab ? [p.tab] : [])),
  );
}

/** A fiscalising store's sales take TRA receipt numbers, in the order they were numbered. */
async function numberFiscal(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<Map<string, FiscalReceiptRow>> {
  if (set.store.fiscal !== 1) return new Map<string, FiscalReceiptRow>();
  return numberFiscalReceipts(
    tx,
    set.storeId,
    plans.map((p) => p.row),
  );
}

/** The customer may have paid before the till synced: look for the payment after the answer. */
function checkPaymentsLater(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): void {
  const unverified = plans.filter((p) => p.row.payment_verification === 'unverified').map((p) => p.row.id);
  if (unverified.length) afterCommit(tx, () => tx.saleVerification.soon(set.orgId, unverified));
}
