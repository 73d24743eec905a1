/**
 * Writing planned sales (`planSale`), one sale or a pushed batch, in a number of statements that
 * does not grow with the number of sales: the store's receipt counter once, one stock update for
 * every product, then each kind of row in one multi-row insert, one `transaction.created` event
 * and one audit entry per sale (on Postgres all of these in ONE statement, `writeTogether`), then
 * one batch-ledger write (its dispensing lines are the sales' lots).
 */
import { fromCents } from '@duka/shared';
import { type SqlBool, sql } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import { insertWrite, orgIdCheck, queryWrite, updateWrite, writeTogether } from '../../../db/dialect.js';
import { afterCommit } from '../../../db/transaction.js';
import { auditRows } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { openCreditTabs } from '../../credits/credits.exports.js';
import { moveBatches, recordPrescriptionEntry } from '../../pharmacy/pharmacy.exports.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import { numberFiscalReceipts } from '../../fiscal/fiscal.exports.js';
import type { SaleSet } from './sale-inputs.js';
import type { SalePlan } from '../sale/sale-plan.js';

/** Returns the fiscal receipts the sales were numbered with, by sale id (none in a store that does not fiscalise). */
export async function writeSales(tx: AuthedContext, set: SaleSet, plans: SalePlan[]): Promise<Map<string, FiscalReceiptRow>> {
  if (plans.length === 0) return new Map();
  const { orgId, storeId } = set;
  const now = tx.clock.now();

  // Stock: the sum of every sale's change per product.
  const delta = new Map<string, number>();
  for (const p of plans) for (const [id, d] of p.stockDelta) delta.set(id, (delta.get(id) ?? 0) + d);
  const customers = plans.flatMap((p) => (p.newCustomer ? [p.newCustomer] : []));
  const events = tx.events.prepareMany(
    tx,
    plans.map((p) => createdEvent(set, p)),
  );
  // One statement on Postgres (issue 49): the store's counter, the stock, every row of the sales,
  // their events and audit entries. Nothing below reads the events or the audit entries.
  await writeTogether(tx.db, [
    queryWrite(
      tx.db.updateTable('stores').set({ last_number: set.store.last_number }).where('id', '=', storeId).where('org_id', '=', orgId),
    ),
    updateWrite(
      'product_stock',
      // orgIdCheck: SQLite finds each row by its product, whatever its statistics say.
      {
        key: 'product_id',
        add: 'qty',
        where: sql<SqlBool>`${orgIdCheck(tx.dialect, 'product_stock.org_id', orgId)} and product_stock.store_id = ${storeId}`,
        now,
      },
      [...delta].filter(([, d]) => d !== 0).map(([key, add]) => ({ key, add })),
    ),
    insertWrite(
      'customers',
      customers.map((c) => ({
        id: c.id,
        org_id: c.org_id,
        name: c.name,
        phone: c.phone,
        email: null,
        notes: null,
        first_purchase_at: null,
        last_purchase_at: null,
        created_at: c.created_at,
        updated_at: c.updated_at,
      })),
    ),
    insertWrite(
      'transactions',
      plans.map((p) => p.row),
    ),
    insertWrite(
      'transaction_lines',
      plans.flatMap((p) => p.lines),
    ),
    insertWrite(
      'batches',
      plans.flatMap((p) => p.newBatches),
    ),
    events.write,
    insertWrite(
      'audit_log',
      auditRows(
        tx,
        plans.map(({ row, request }) => ({
          action: 'sale.create',
          description: `Sale ${row.receipt_number}: ${fromCents(row.total)} TZS by ${row.payment_method}`,
          entity: 'transaction',
          entityId: row.id,
          userId: request.actor?.userId,
        })),
      ),
    ),
  ]);
  for (const id of delta.keys()) noteChange(tx, orgId, { entity: 'stock', id, storeId });
  for (const c of customers) noteChange(tx, orgId, { entity: 'customer', id: c.id });

  const moves = plans.flatMap((p) => p.moves);
  if (moves.length) {
    // The dispensing lines are the sale's lot records too (what receipts print and refunds return to).
    await moveBatches(tx, moves, { productNames: new Map([...set.products].map(([id, p]) => [id, p.name])), applyStock: false });
  }
  // A register entry per sale of a prescription medicine (few; the entry writes nothing for others).
  for (const p of plans)
    await recordPrescriptionEntry(tx, { row: p.row, lines: p.merged, products: set.products, prescription: p.request.input.prescription });
  await openCreditTabs(
    tx,
    orgId,
    plans.flatMap((p) => (p.tab ? [p.tab] : [])),
  );
  for (const p of plans) noteChange(tx, orgId, { entity: 'transaction', id: p.row.id, storeId });
  const fiscal =
    set.store.fiscal === 1
      ? await numberFiscalReceipts(
          tx,
          storeId,
          plans.map((p) => p.row),
        )
      : new Map<string, FiscalReceiptRow>();

  events.deliver();
  // The customer may have paid before the till synced: look for the payment after the answer.
  const unverified = plans.filter((p) => p.row.payment_verification === 'unverified').map((p) => p.row.id);
  if (unverified.length) afterCommit(tx, () => tx.saleVerification.soon(orgId, unverified));
  return fiscal;
}

/** The `transaction.created` event of a planned sale. */
function createdEvent(set: SaleSet, { row, lines, stockAfter }: SalePlan) {
  return {
    type: 'transaction.created' as const,
    orgId: set.orgId,
    storeId: set.storeId,
    data: {
      transaction_id: row.id,
      number: row.number,
      receipt_number: row.receipt_number,
      status: row.status,
      payment_method: row.payment_method,
      total: fromCents(row.total),
      customer_id: row.customer_id,
      cashier_id: row.cashier_id,
      source: row.source,
      lines: lines.map((l) => {
        const product = set.products.get(l.product_id)!;
        return {
          product_id: l.product_id,
          product_name: l.product_name,
          qty: l.qty,
          stock_after: stockAfter.get(l.product_id) ?? null,
          reorder_point: product.reorder_point,
          is_service: product.is_service === 1,
        };
      }),
    },
  };
}
