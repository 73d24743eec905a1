/**
 * Customers and credit on the till: a new customer (queued as `customer.upsert` with the till's id,
 * which becomes the server's) and a credit payment (queued as `credit.payment`), spread by the
 * server's rule (`allocatePayment`) over the tabs the till holds.
 */
import {
  allocatePayment,
  CreditPaymentPayload,
  type CreditTab,
  type Customer,
  CustomerUpsertPayload,
  newId,
  fromCents,
  type SettlementMethod,
  toCents,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { LocalTrx } from '../local/db.js';
import { moveOutstanding, snapshot, type Undo } from '../local/effects.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import type { CreateCustomerInput, CreditPaymentInput, CreditPaymentReceipt } from '../types.js';
import { type ActionCtx, invalid, requirePower } from './context.js';
import { shiftMovement } from '../local/shift-movements.js';

/** `0712…` as `+255712…`; anything else as typed (the server normalises and answers the stored form). */
const tzPhone = (phone: string) => phone.replace(/[\s-]/g, '').replace(/^0(\d{9})$/, '+255$1');

export async function createCustomer(ctx: ActionCtx, input: CreateCustomerInput): Promise<Customer> {
  const id = newId();
  const parsed = CustomerUpsertPayload.safeParse({ id, ...input });
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const p = parsed.data;
  const phone = p.phone ? tzPhone(p.phone) : null;
  const customer = await ctx.db.transaction().execute(async (trx) => {
    // A new customer has no limit (0); any other limit is set only with the credit permission.
    if (p.credit_limit !== undefined && toCents(p.credit_limit) !== 0) await requirePower(trx, 'set_credit_limit', 'credit_limit');
    if (phone && (await trx.selectFrom('customers').select('id').where('phone', '=', phone).executeTakeFirst())) {
      throw new TillError('DUPLICATE', 'a customer with this phone already exists', 'phone');
    }
    const at = new Date(ctx.now()).toISOString();
    const c: Customer = {
      id,
      name: p.name,
      phone,
      email: p.email ?? null,
      segment: 'New',
      credit_limit: p.credit_limit ?? 0,
      notes: p.notes ?? null,
      is_active: true,
      total_spend: 0,
      visit_count: 0,
      outstanding_balance: 0,
      created_at: at,
      updated_at: at,
    };
    await trx
      .insertInto('customers')
      .values({ id, name: c.name, phone, outstanding: 0, data: JSON.stringify(c) })
      .execute();
    await enqueue(trx, 'customer.upsert', p, ctx.now(), { restore: [{ table: 'customers', id, row: null }] });
    return c;
  });
  ctx.queued();
  return customer;
}

export async function recordCreditPayment(ctx: ActionCtx, input: CreditPaymentInput): Promise<CreditPaymentReceipt> {
  const id = newId();
  const parsed = CreditPaymentPayload.safeParse({ id, ...input });
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const p = parsed.data;
  const receipt = await ctx.db.transaction().execute(async (trx) => {
    const paid = await payTabOnTill(trx, { customer_id: p.customer_id, method: p.method, amount: toCents(p.amount) }, ctx.now());
    const shift = paid.shiftId ? { shift_id: paid.shiftId } : {};
    await enqueue(trx, 'credit.payment', { ...p, ...shift }, ctx.now(), paid.undo);
    return { id, customer_id: p.customer_id, amount: p.amount, allocations: paid.allocations, outstanding_balance: paid.outstanding };
  });
  ctx.queued();
  return receipt;
}

/**
 * A payment into the customer's tab, recorded in the replica as the server will (`allocatePayment`
 * over the tabs the till holds, oldest first; more than they owe refused), and in the drawer. Not
 * queued: the caller queues it (a `credit.payment`, or an exchange's difference to the tab inside its
 * `sale.exchange`), with the undo it answers.
 */
export async function payTabOnTill(
  trx: LocalTrx,
  p: { customer_id: string; method: SettlementMethod; amount: number },
  now: number,
): Promise<{ undo: Undo; allocations: Array<{ tab_id: string; amount: number }>; outstanding: number; shiftId?: string }> {
  const customer = await trx.selectFrom('customers').select(['name', 'outstanding']).where('id', '=', p.customer_id).executeTakeFirst();
  if (!customer) throw new TillError('NOT_FOUND', 'customer not found', 'customer_id');
  const { amount } = p;
  const tabs = await reads.creditTabs(trx, p.customer_id);
  // Owed is the customer's balance as last synced: the replica may not hold all of their tabs.
  const found = allocatePayment({
    amount,
    customer_name: customer.name,
    owed: customer.outstanding,
    tabs: tabs.map((tab) => ({ id: tab.id, opened_at: Date.parse(tab.created_at), balance: toCents(tab.balance) })),
  });
  if (found.breach) throw new TillError(found.breach.code, found.breach.message, found.breach.field);

  const undo: Undo = { outstanding: { [p.customer_id]: amount }, restore: [] };
  const byId = new Map(tabs.map((tab) => [tab.id, tab]));
  for (const a of found.allocations) {
    const tab = byId.get(a.tab_id)!;
    undo.restore!.push({ table: 'credit_tabs', id: tab.id, row: await snapshot(trx, 'credit_tabs', tab.id) });
    if (a.settled) {
      // A settled tab leaves what the till holds, as the server's pull would say.
      await trx.deleteFrom('credit_tabs').where('id', '=', tab.id).execute();
      continue;
    }
    const paid: CreditTab = {
      ...tab,
      paid_amount: fromCents(toCents(tab.paid_amount) + a.amount),
      balance: fromCents(toCents(tab.balance) - a.amount),
      status: 'partially_paid',
    };
    await trx
      .updateTable('credit_tabs')
      .set({ data: JSON.stringify(paid) })
      .where('id', '=', tab.id)
      .execute();
  }
  await moveOutstanding(trx, p.customer_id, -amount);
  const inShift = await shiftMovement(trx, { kind: 'credit_payment', method: p.method, amount, at: now });
  undo.movements = inShift.movements;
  const allocations = found.allocations.map((a) => ({ tab_id: a.tab_id, amount: fromCents(a.amount) }));
  return { undo, allocations, outstanding: fromCents(customer.outstanding - amount), shiftId: inShift.shift_id };
}
