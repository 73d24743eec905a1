/**
 * What each mutation type does on the server: the same service verbs the REST routes call, so a
 * rule exists once. A mutator returns what the till needs back (ids, numbers) and the conflicts
 * the server noted; a ServiceError it throws rejects the mutation with that error's code.
 */
import { fromCents, MUTATION_PAYLOADS, type LineBatchInput, type Mutation, type MutationType, type Reversal, type SaleConflict, SaleReversePayload } from '@duka/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import { recordCreditPayment } from '../../../modules/credits/services/payments.js';
import { findCustomer } from '../../../modules/customers/customers.queries.js';
import { createCustomer, updateCustomer } from '../../../modules/customers/services/customers.js';
import { orgProductsById } from '../../../modules/inventory/inventory.queries.js';
import { adjustStock } from '../../../modules/inventory/services/stock.js';
import { createExpense } from '../../../modules/expenses/services/expenses.js';
import { markRead } from '../../../modules/notifications/services/notifications.js';
import { applyNoteUpdate } from '../../../modules/notebook/services/notes.js';
import { recordSale } from '../../../modules/pos/services/record-sale.js';
import { refundSale, voidSale } from '../../../modules/pos/services/sale-state.js';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import { recordConflicts } from './conflicts.js';
import { reconcilePrices } from './reconcile.js';
import { requireOrg, requireStore } from '../../../lib/auth/authorize.js';

export interface MutatorOutcome {
  result?: Record<string, unknown>;
  conflicts?: SaleConflict[];
}

type Payload<T extends MutationType> = z.infer<(typeof MUTATION_PAYLOADS)[T]>;
type Mutator<T extends MutationType> = (ctx: AuthedContext, payload: Payload<T>, m: Mutation, device: DeviceRow, at: number) => Promise<MutatorOutcome>;

const saleCreate: Mutator<'sale.create'> = async (ctx, p, m, device, at) => {
  const { orgId, storeId } = requireStore(ctx);
  const products = await orgProductsById(ctx.db, orgId, p.lines.map((l) => l.product_id));
  const { cashier_id: cashierId, ...sold } = p;
  // The sale is booked to whoever rang it up on the till, if they belong to this organisation.
  if (cashierId && !(await ctx.db.selectFrom('users').select('id').where('id', '=', cashierId).where('org_id', '=', orgId).executeTakeFirst())) {
    throw new ValidationError('payload.cashier_id', 'is not a member of this organisation');
  }
  const priced = await reconcilePrices(ctx.db, p.lines, at, products);
  // The lots the till took, per product (a product on two lines is one line on the server).
  const lineBatches = new Map<string, LineBatchInput[]>();
  for (const l of p.lines) if (l.batches?.length) lineBatches.set(l.product_id, [...(lineBatches.get(l.product_id) ?? []), ...l.batches]);
  const sale = await recordSale(
    ctx,
    { ...sold, lines: p.lines.map((l) => ({ product_id: l.product_id, qty: l.qty })) },
    { source: 'offline', occurredAt: at, clientReceiptNumber: p.client_receipt_number, deviceId: device.id, unitPrices: priced.unitPrices, cashierId, products, lineBatches },
  );
  const conflicts = sale.replayed ? [] : [...priced.conflicts, ...sale.conflicts];
  if (conflicts.length) {
    await recordConflicts(ctx, { orgId, storeId, deviceId: device.id, mutationId: m.id, transactionId: sale.row.id, receipt: sale.row.receipt_number }, conflicts);
  }
  const { row } = sale;
  return { result: { transaction_id: row.id, number: row.number, receipt_number: row.receipt_number, status: row.status, total: fromCents(row.total) }, conflicts };
};

const saleReverse =
  (move: Reversal) =>
  async (ctx: AuthedContext, p: z.infer<typeof SaleReversePayload>): Promise<MutatorOutcome> => {
    const tx = await (move === 'refund' ? refundSale : voidSale)(ctx, p.transaction_id, p.reason);
    return { result: { transaction_id: tx.id, status: tx.status } };
  };

const customerUpsert: Mutator<'customer.upsert'> = async (ctx, p) => {
  const fields = { name: p.name, phone: p.phone, email: p.email, credit_limit: p.credit_limit, notes: p.notes };
  if (await findCustomer(ctx.db, requireOrg(ctx), p.id)) {
    const c = await updateCustomer(ctx, p.id, fields);
    return { result: { customer_id: c.id } };
  }
  const taken = await ctx.db.selectFrom('customers').select('id').where('id', '=', p.id).executeTakeFirst();
  if (taken) throw new ServiceError('CONFLICT', 'this customer id is already in use');
  const c = await createCustomer(ctx, fields, p.id);
  return { result: { customer_id: c.id } };
};

const creditPayment: Mutator<'credit.payment'> = async (ctx, p) => {
  const payment = await recordCreditPayment(ctx, p.customer_id, { amount: p.amount, method: p.method, reference: p.reference, note: p.note });
  return { result: { payment_id: payment.id } };
};

const stockAdjust: Mutator<'stock.adjust'> = async (ctx, p) => {
  const product = await adjustStock(ctx, p.product_id, { qty_change: p.qty_change, reason: p.reason, note: p.note, batch_id: p.batch_id });
  return { result: { product_id: product.id, stock: product.stock } };
};

const notificationRead: Mutator<'notification.read'> = async (ctx, p) => {
  await markRead(ctx, p.notification_id);
  return { result: { notification_id: p.notification_id } };
};

const noteUpdate: Mutator<'note.update'> = async (ctx, p) => {
  const { note, created } = await applyNoteUpdate(ctx, p);
  return { result: { note_id: note.id, created, updated_at: note.updated_at } };
};

const expenseCreate: Mutator<'expense.create'> = async (ctx, { id, spent_at, ...input }, _m, _device, at) => {
  // Like a sale's time, a till's clock is clamped to the server's.
  const spentAt = spent_at ? Math.min(Date.parse(spent_at), ctx.clock.now()) : at;
  const expense = await createExpense(ctx, input, { id, spentAt });
  return { result: { expense_id: expense.id } };
};

const MUTATORS: { [T in MutationType]: Mutator<T> } = {
  'sale.create': saleCreate,
  'sale.refund': saleReverse('refund'),
  'sale.void': saleReverse('void'),
  'customer.upsert': customerUpsert,
  'credit.payment': creditPayment,
  'stock.adjust': stockAdjust,
  'expense.create': expenseCreate,
  'note.update': noteUpdate,
  'notification.read': notificationRead,
};

/** Validate the payload against its schema (a bad shape rejects the mutation) and run it. */
export async function runMutation(ctx: AuthedContext, m: Mutation, device: DeviceRow, at: number): Promise<MutatorOutcome> {
  const parsed = MUTATION_PAYLOADS[m.type].safeParse(m.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ServiceError('VALIDATION_ERROR', `payload.${issue.path.join('.')} ${issue.message}`);
  }
  return (MUTATORS[m.type] as Mutator<MutationType>)(ctx, parsed.data as never, m, device, at);
}
