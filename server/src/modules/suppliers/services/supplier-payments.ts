/**
 * Money paid to suppliers (owner only), against one delivery or against the supplier's balance
 * (spread over its oldest owing deliveries first). Never more than is owed: 422 OVERPAYMENT with
 * nothing written. The owing deliveries are read FOR UPDATE inside the payment's transaction, so
 * two payments at once cannot both pass the check (SQLite has a single writer).
 */
import { newId, fromCents, toCents } from '@duka/shared';
import type { ListSupplierPaymentsQuery, PageMeta, RecordSupplierPaymentInput, SupplierPayment } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError, NotFoundError } from '../../../lib/errors.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { insertSupplierPayment, lockDeliveryToPay, lockOwingDeliveries, orgPayments, toPayments } from '../supplier-payments.queries.js';
import { owedCents } from '../suppliers.queries.js';
import type { DeliveryRow } from '../../../db/tables/suppliers.table.js';
import { requireSupplier } from './suppliers.js';
import { requireOrg, requireRole, requireStore } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

function refuseOverpayment(amount: number, owed: number, whom: string): void {
  if (amount <= owed) return;
  const message =
    owed === 0 ? `nothing is owed to ${whom}` : `TZS ${fromCents(owed)} is owed to ${whom}; the payment cannot be more than that`;
  throw new BusinessRuleError(message, 'OVERPAYMENT', 'amount');
}

/** Write the payment and spread it over `deliveries` in the order given. */
async function book(
  tx: AuthedContext,
  p: { supplierId: string; supplierName: string; deliveryId: string | null; amount: number; input: RecordSupplierPaymentInput },
  deliveries: DeliveryRow[],
): Promise<SupplierPayment> {
  const { orgId, storeId } = requireStore(tx);
  const now = tx.clock.now();
  const id = newId();
  await insertSupplierPayment(
    tx.db,
    {
      id,
      org_id: orgId,
      store_id: storeId,
      supplier_id: p.supplierId,
      delivery_id: p.deliveryId,
      amount: p.amount,
      payment_method: p.input.payment_method,
      reference: p.input.reference ?? null,
      notes: p.input.notes ?? null,
      created_by: tx.actor.userId,
    },
    now,
  );
  let left = p.amount;
  for (const d of deliveries) {
    if (left === 0) break;
    const take = Math.min(left, owedCents(d));
    if (take <= 0) continue;
    left -= take;
    const paid = Number(d.paid_amount) + take;
    await tx.db
      .updateTable('deliveries')
      .set({ paid_amount: paid, is_paid: paid >= Number(d.total_value) ? 1 : 0, updated_at: now })
      .where('org_id', '=', orgId)
      .where('id', '=', d.id)
      .execute();
    await tx.db
      .insertInto('supplier_payment_allocations')
      .values({ org_id: orgId, payment_id: id, delivery_id: d.id, amount: take })
      .execute();
  }
  await recordAudit(tx, {
    action: 'supplier.payment',
    description: `Paid TZS ${fromCents(p.amount)} (${p.input.payment_method}) to ${p.supplierName}`,
    entity: 'supplier',
    entityId: p.supplierId,
  });
  const row = await orgPayments(tx.db, orgId).where('supplier_payments.id', '=', id).executeTakeFirstOrThrow();
  return (await toPayments(tx.db, [row]))[0]!;
}

/** Pay against one delivery of the active store: at most what it still owes. */
export async function payDelivery(ctx: AuthedContext, deliveryId: string, input: RecordSupplierPaymentInput): Promise<SupplierPayment> {
  requireRole(ctx, 'owner');
  const scope = requireStore(ctx);
  const amount = toCents(input.amount);
  return withTransaction(ctx, async (tx) => {
    const d = await lockDeliveryToPay(tx, scope, deliveryId);
    if (!d) throw new NotFoundError('delivery');
    refuseOverpayment(amount, owedCents(d), `${d.supplier_name} on this delivery`);
    return book(tx, { supplierId: d.supplier_id, supplierName: d.supplier_name, deliveryId: d.id, amount, input }, [d]);
  });
}

/** Pay against the supplier's balance (all stores), oldest owing delivery first. */
export async function paySupplier(ctx: AuthedContext, supplierId: string, input: RecordSupplierPaymentInput): Promise<SupplierPayment> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const supplier = await requireSupplier(ctx, supplierId);
  const amount = toCents(input.amount);
  return withTransaction(ctx, async (tx) => {
    const deliveries = await lockOwingDeliveries(tx, orgId, supplierId);
    refuseOverpayment(
      amount,
      deliveries.reduce((sum, d) => sum + owedCents(d), 0),
      supplier.name,
    );
    return book(tx, { supplierId, supplierName: supplier.name, deliveryId: null, amount, input }, deliveries);
  });
}

export async function payDeliveryOnce(ctx: AuthedContext, deliveryId: string, input: RecordSupplierPaymentInput, key: string | undefined) {
  const route = `POST /suppliers/deliveries/${deliveryId}/pay`;
  const out = await withIdempotency(ctx, { key, route, body: input }, async (tx) => ({
    status: 200,
    body: await payDelivery(tx, deliveryId, input),
  }));
  return { payment: out.body as SupplierPayment, replayed: out.replayed };
}

export async function paySupplierOnce(ctx: AuthedContext, supplierId: string, input: RecordSupplierPaymentInput, key: string | undefined) {
  const route = `POST /suppliers/${supplierId}/pay`;
  const out = await withIdempotency(ctx, { key, route, body: input }, async (tx) => ({
    status: 200,
    body: await paySupplier(tx, supplierId, input),
  }));
  return { payment: out.body as SupplierPayment, replayed: out.replayed };
}

/** Payments of the organisation (every store), newest first; `supplierId` (path) or `q.supplier` narrows them. */
export async function listSupplierPayments(
  ctx: AuthedContext,
  q: ListSupplierPaymentsQuery,
  supplierId?: string,
): Promise<{ items: SupplierPayment[]; meta: PageMeta }> {
  const orgId = requireOrg(ctx);
  if (supplierId) await requireSupplier(ctx, supplierId);
  const supplier = supplierId ?? q.supplier;
  const base = orgPayments(ctx.db, orgId).$if(!!supplier, (qb) => qb.where('supplier_payments.supplier_id', '=', supplier!));
  const { rows, meta } = await countedPage(
    base,
    base.orderBy('supplier_payments.paid_at', 'desc').orderBy('supplier_payments.id', 'desc'),
    q,
  );
  return { items: await toPayments(ctx.db, rows), meta };
}
