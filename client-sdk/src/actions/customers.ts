/**
 * Customers and credit on the till: a new customer (queued as `customer.upsert` with the till's id,
 * which becomes the server's) and a credit payment (queued as `credit.payment`), spread over the
 * customer's oldest tabs first as the server does, and never more than is owed.
 */
import { CreditPaymentPayload, type CreditTab, type Customer, CustomerUpsertPayload, newId } from '@duka/shared';
import { TillError } from '../errors.js';
import { moveOutstanding, snapshot, type Undo } from '../local/effects.js';
import { fromCents, toCents } from '../money.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import type { CreateCustomerInput, CreditPaymentInput, CreditPaymentReceipt } from '../types.js';
import { type ActionCtx, invalid } from './context.js';

/** `0712…` as `+255712…`; anything else as typed (the server normalises and answers the stored form). */
const tzPhone = (phone: string) => phone.replace(/[\s-]/g, '').replace(/^0(\d{9})$/, '+255$1');

export async function createCustomer(ctx: ActionCtx, input: CreateCustomerInput): Promise<Customer> {
  const id = newId();
  const parsed = CustomerUpsertPayload.safeParse({ id, ...input });
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const p = parsed.data;
  const phone = p.phone ? tzPhone(p.phone) : null;
  const customer = await ctx.db.transaction().execute(async (trx) => {
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
    await trx.insertInto('customers').values({ id, name: c.name, phone, outstanding: 0, data: JSON.stringify(c) }).execute();
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
    const customer = await trx.selectFrom('customers').select(['outstanding']).where('id', '=', p.customer_id).executeTakeFirst();
    if (!customer) throw new TillError('NOT_FOUND', 'customer not found', 'customer_id');
    const amount = toCents(p.amount);
    if (amount > customer.outstanding) throw new TillError('OVERPAYMENT', `the customer owes ${fromCents(customer.outstanding)}`, 'amount');

    const undo: Undo = { outstanding: { [p.customer_id]: amount }, restore: [] };
    const allocations: CreditPaymentReceipt['allocations'] = [];
    let left = amount;
    for (const tab of await reads.creditTabs(trx, p.customer_id)) {
      if (left <= 0) break;
      const balance = toCents(tab.balance);
      const take = Math.min(balance, left);
      if (take <= 0) continue;
      left -= take;
      allocations.push({ tab_id: tab.id, amount: fromCents(take) });
      undo.restore!.push({ table: 'credit_tabs', id: tab.id, row: await snapshot(trx, 'credit_tabs', tab.id) });
      if (take === balance) {
        // A settled tab leaves what the till holds, as the server's pull would say.
        await trx.deleteFrom('credit_tabs').where('id', '=', tab.id).execute();
        continue;
      }
      const paid: CreditTab = { ...tab, paid_amount: fromCents(toCents(tab.paid_amount) + take), balance: fromCents(balance - take), status: 'partially_paid' };
      await trx.updateTable('credit_tabs').set({ data: JSON.stringify(paid) }).where('id', '=', tab.id).execute();
    }
    await moveOutstanding(trx, p.customer_id, -amount);
    await enqueue(trx, 'credit.payment', p, ctx.now(), undo);
    return { id, customer_id: p.customer_id, amount: p.amount, allocations, outstanding_balance: fromCents(customer.outstanding - amount) };
  });
  ctx.queued();
  return receipt;
}
