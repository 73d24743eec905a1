/**
 * The sales' own rows, written together: the store's receipt counter once, one stock update for
 * every product, then each kind of row in one multi-row insert, one `transaction.created` event and
 * one audit entry per sale. On Postgres all of these are ONE statement (`writeTogether`, issue 49);
 * on SQLite one statement each, in this order.
 */
import { fromCents, fromCount } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { insertWrite, queryWrite, writeTogether } from '../../../db/dialect.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import { auditRows } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { stockWrite } from './deferred-stock.js';
import type { SalePlan } from './sale-plan.js';
import type { SaleSet } from './sale-set.js';

/** Writes the rows and notes what changed; returns the events, delivered once the rest is written. */
export async function writeRows(tx: AuthedContext, set: SaleSet, plans: SalePlan[]) {
  const { orgId, storeId } = set;
  const now = tx.clock.now();
  const delta = stockDelta(plans);
  const customers = plans.flatMap((p) => (p.newCustomer ? [p.newCustomer] : []));
  const events = tx.events.prepareMany(
    tx,
    plans.map((p) => createdEvent(set, p)),
  );
  // Nothing below reads the events or the audit entries, so they go in the same statement.
  await writeTogether(tx.db, [
    queryWrite(
      tx.db.updateTable('stores').set({ last_number: set.store.last_number }).where('id', '=', storeId).where('org_id', '=', orgId),
    ),
    ...deferOrWrite(tx, set, delta, now),
    insertWrite('customers', customers.map(customerRow)),
    insertWrite(
      'transactions',
      plans.map((p) => p.row),
    ),
    insertWrite(
      'transaction_lines',
      plans.flatMap((p) => p.lines),
    ),
    insertWrite(
      'transaction_payments',
      plans.flatMap((p) => p.payments),
    ),
    insertWrite(
      'batches',
      plans.flatMap((p) => p.newBatches),
    ),
    events.write,
    insertWrite('audit_log', saleAudit(tx, plans)),
  ]);
  for (const id of delta.keys()) noteChange(tx, orgId, { entity: 'stock', id, storeId });
  for (const c of customers) noteChange(tx, orgId, { entity: 'customer', id: c.id });
  return events;
}

/** Stock: the sum of every sale's change per product (a product in two sales is updated once). */
function stockDelta(plans: SalePlan[]): Map<string, number> {
  const delta = new Map<string, number>();
  for (const p of plans) for (const [id, d] of p.stockDelta) delta.set(id, (delta.get(id) ?? 0) + d);
  return delta;
}

/** The set's stock write, or none while its store's batch of pushes keeps the moves for its end (deferred-stock.ts). */
function deferOrWrite(tx: AuthedContext, set: SaleSet, delta: Map<string, number>, now: number) {
  const kept = tx.pending?.stock;
  if (!kept) return [stockWrite(tx, set, delta, now)];
  for (const [productId, add] of delta) if (add !== 0) kept.push({ orgId: set.orgId, storeId: set.storeId, productId, add, now });
  return [];
}

/** A customer first met by phone, as its row is inserted (the rest is the table's defaults). */
function customerRow(c: CustomerRow) {
  return {
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
  };
}

function saleAudit(tx: AuthedContext, plans: SalePlan[]) {
  return auditRows(
    tx,
    plans.map(({ row, request }) => ({
      action: 'sale.create',
      description: `Sale ${row.receipt_number}: ${fromCents(row.total)} TZS by ${row.payment_method}`,
      entity: 'transaction',
      entityId: row.id,
      userId: request.actor?.userId,
    })),
  );
}

/** The `transaction.created` event of a planned sale: quantities in each product's unit, as the API answers them. */
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
        const after = stockAfter.get(l.product_id);
        return {
          product_id: l.product_id,
          product_name: l.product_name,
          qty: fromCount(l.qty, product.unit),
          unit: product.unit,
          stock_after: after === undefined ? null : fromCount(after, product.unit),
          reorder_point: fromCount(product.reorder_point, product.unit),
          is_service: product.is_service === 1,
        };
      }),
    },
  };
}
