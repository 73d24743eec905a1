/**
 * What each mutation type does on the server: the same service verbs the REST routes call, so a
 * rule exists once. A mutator returns what the till needs back (ids, numbers) and the conflicts
 * the server noted; a ServiceError it throws rejects the mutation with that error's code.
 */
import {
  MUTATION_PAYLOADS,
  type Mutation,
  type MutationType,
  type Reversal,
  type SaleConflict,
  type SaleRefundPayload,
} from '@duka/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { recordCreditPayment } from '../../../modules/credits/credits.exports.js';
import { findCustomer, createCustomer, updateCustomer } from '../../../modules/customers/customers.exports.js';
import { adjustStock, recordStockTakeCounts } from '../../../modules/inventory/inventory.exports.js';
import { createExpense } from '../../../modules/expenses/expenses.exports.js';
import { markRead } from '../../../modules/notifications/notifications.exports.js';
import { applyNoteUpdate } from '../../../modules/notebook/notebook.exports.js';
import { refundSale, voidSale } from '../../../modules/pos/pos.exports.js';
import { closeShift, openShift } from '../../../modules/shifts/shifts.exports.js';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import { requireOrg, requireStore } from '../../../lib/auth/authorize.js';
import { recordConflicts } from './conflicts.js';

export interface MutatorOutcome {
  result?: Record<string, unknown>;
  conflicts?: SaleConflict[];
}

type Payload<T extends MutationType> = z.infer<(typeof MUTATION_PAYLOADS)[T]>;
type Mutator<T extends MutationType> = (
  ctx: AuthedContext,
  payload: Payload<T>,
  m: Mutation,
  device: DeviceRow,
  at: number,
) => Promise<MutatorOutcome>;

const saleReverse =
  (move: Reversal) =>
  async (
    ctx: AuthedContext,
    p: z.infer<typeof SaleRefundPayload>,
    _m: Mutation,
    device: DeviceRow,
    at: number,
  ): Promise<MutatorOutcome> => {
    const conflicts: SaleConflict[] = [];
    const source = { shiftId: p.shift_id, deviceId: device.id, conflicts };
    const tx = await (move === 'refund'
      ? refundSale(ctx, p.transaction_id, p.reason, { ...source, lines: p.lines })
      : voidSale(ctx, p.transaction_id, p.reason, { ...source, at }));
    return { result: { transaction_id: tx.id, status: tx.status }, conflicts };
  };

const customerUpsert: Mutator<'customer.upsert'> = async (ctx, p) => {
  const fields = { name: p.name, phone: p.phone, email: p.email, credit_limit: p.credit_limit, notes: p.notes };
  if (await findCustomer(ctx.db, requireOrg(ctx), p.id)) {
    const c = await updateCustomer(ctx, p.id, fields);
    return { result: { customer_id: c.id } };
  }
  const c = await createCustomer(ctx, fields, p.id);
  return { result: { customer_id: c.id } };
};

const creditPayment: Mutator<'credit.payment'> = async (ctx, p, _m, device) => {
  const conflicts: SaleConflict[] = [];
  const payment = await recordCreditPayment(
    ctx,
    p.customer_id,
    {
      amount: p.amount,
      method: p.method,
      reference: p.reference,
      note: p.note,
    },
    { shiftId: p.shift_id, deviceId: device.id, conflicts },
  );
  return { result: { payment_id: payment.id }, conflicts };
};

const stockAdjust: Mutator<'stock.adjust'> = async (ctx, p) => {
  const product = await adjustStock(ctx, p.product_id, { qty_change: p.qty_change, reason: p.reason, note: p.note, batch_id: p.batch_id });
  return { result: { product_id: product.id, stock: product.stock } };
};

/** A till's count in a stock-take: the REST route's write, which skips a count id it has recorded already. */
const stockTakeCount: Mutator<'stock_take.count'> = async (ctx, { stock_take_id, ...count }, _m, device) => {
  await recordStockTakeCounts(ctx, stock_take_id, { counts: [{ ...count, device_id: device.id }] });
  return { result: { stock_take_id, count_id: count.id, product_id: count.product_id } };
};

const notificationRead: Mutator<'notification.read'> = async (ctx, p) => {
  await markRead(ctx, p.notification_id);
  return { result: { notification_id: p.notification_id } };
};

const noteUpdate: Mutator<'note.update'> = async (ctx, p) => {
  const { note, created } = await applyNoteUpdate(ctx, p);
  return { result: { note_id: note.id, created, updated_at: note.updated_at } };
};

const expenseCreate: Mutator<'expense.create'> = async (ctx, { id, spent_at, shift_id, ...input }, _m, device, at) => {
  // Like a sale's time, a till's clock is clamped to the server's.
  const spentAt = spent_at ? Math.min(Date.parse(spent_at), ctx.clock.now()) : at;
  const conflicts: SaleConflict[] = [];
  const expense = await createExpense(ctx, input, { id, spentAt, shiftId: shift_id, deviceId: device.id, conflicts });
  return { result: { expense_id: expense.id }, conflicts };
};

/** The till's id for the shift: a replay (or the same shift opened again) answers the one it opened. */
const shiftOpen: Mutator<'shift.open'> = async (ctx, p, _m, device, at) => {
  const { shift } = await openShift(ctx, p, { openedAt: at, deviceId: device.id });
  return { result: { shift_id: shift.id, status: shift.status } };
};

const shiftClose: Mutator<'shift.close'> = async (ctx, { shift_id, ...input }, _m, _device, at) => {
  const shift = await closeShift(ctx, shift_id, input, { closedAt: at });
  return { result: { shift_id: shift.id, status: shift.status, over_short: shift.report.totals.over_short } };
};

/** `sale.create` is applied a run at a time by `applySales` (sale-mutations.ts), `sale.exchange` by exchange-mutation.ts, not here. */
type Applied = Exclude<MutationType, 'sale.create' | 'sale.exchange'>;
const MUTATORS: { [T in Applied]: Mutator<T> } = {
  'sale.refund': saleReverse('refund'),
  'sale.void': saleReverse('void'),
  'customer.upsert': customerUpsert,
  'credit.payment': creditPayment,
  'stock.adjust': stockAdjust,
  'expense.create': expenseCreate,
  'note.update': noteUpdate,
  'notification.read': notificationRead,
  'shift.open': shiftOpen,
  'shift.close': shiftClose,
  'stock_take.count': stockTakeCount,
};

export type SalePayload = Payload<'sale.create'>;

/** The payload checked against its type's schema; a bad shape rejects the mutation. */
export function parsePayload<T extends MutationType>(m: Mutation, type: T): Payload<T> {
  const parsed = MUTATION_PAYLOADS[type].safeParse(m.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ServiceError('VALIDATION_ERROR', `payload.${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data as Payload<T>;
}

/** What a conflict's notification calls the mutation it was noted on. */
const SUBJECT: Partial<Record<MutationType, string>> = {
  'sale.refund': 'Offline refund',
  'sale.void': 'Offline void',
  'expense.create': 'Offline expense',
  'credit.payment': 'Offline credit payment',
};

/** Validate the payload and run the mutation (any type but `sale.create` and `sale.exchange`), recording the conflicts it noted. */
export async function runMutation(ctx: AuthedContext, m: Mutation, device: DeviceRow, at: number): Promise<MutatorOutcome> {
  const type = m.type as Applied;
  const outcome = await (MUTATORS[type] as Mutator<typeof type>)(ctx, parsePayload(m, type) as never, m, device, at);
  if (outcome.conflicts?.length) {
    const transactionId = outcome.result?.transaction_id;
    await recordConflicts(
      ctx,
      {
        orgId: device.org_id,
        storeId: requireStore(ctx).storeId,
        deviceId: device.id,
        mutationId: m.id,
        transactionId: typeof transactionId === 'string' ? transactionId : undefined,
        subject: SUBJECT[type],
      },
      outcome.conflicts,
    );
  }
  return outcome;
}
