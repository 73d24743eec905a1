/**
 * Sending a receipt: the full one by email, or a short one by SMS on the organisation's gateway
 * account (or the platform's); the outbox keeps it when no service is configured.
 */
import { formatTzs, perUnitText, quantityText, type ReceiptInput, type Transaction, toCents } from '@duka/shared';
import type { z } from 'zod';
import { withTransaction } from '../../../db/transaction.js';
import { messageState } from '../../../lib/outgoing-message.js';
import { normalisePhone } from '../../../lib/phone.js';
import { requireCustomerSmsAllowance } from '../../sms/sms.exports.js';
import type { AuthedContext } from '../../../lib/context.js';
import { localDate, localTime } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { itemsOf } from '../../stock-levels/stock-levels.exports.js';
import { getTransaction } from './transactions.js';
import { requireOrg } from '../../../lib/auth/authorize.js';

export interface ReceiptSent {
  channel: 'email' | 'sms';
  email: string | null;
  phone: string | null;
  delivered: boolean;
  failure_reason: string | null;
}

export async function sendReceipt(ctx: AuthedContext, id: string, to: z.infer<typeof ReceiptInput>): Promise<ReceiptSent> {
  if (to.phone !== undefined) return smsReceipt(ctx, id, normalisePhone(to.phone));
  const { email, delivered } = await emailReceipt(ctx, id, to.email!);
  return { channel: 'email', email, phone: null, delivered, failure_reason: null };
}

/** A receipt short enough for one or two SMS: the shop, the number, the total and how it was paid. */
async function smsReceipt(ctx: AuthedContext, id: string, phone: string): Promise<ReceiptSent> {
  const orgId = requireOrg(ctx);
  const sale = await getTransaction(ctx, id);
  const [store, tz] = await Promise.all([
    ctx.db.selectFrom('stores').select('name').where('id', '=', sale.store_id).where('org_id', '=', orgId).executeTakeFirstOrThrow(),
    orgTimezone(ctx.db, orgId),
  ]);
  await requireCustomerSmsAllowance(ctx, orgId);
  const at = Date.parse(sale.created_at);
  // A weighed line is one item, whatever it weighs.
  const items = sale.lines.reduce((n, l) => n + itemsOf(l.qty, l.unit), 0);
  const state = sale.status === 'refunded' ? ' (IMERUDISHWA/REFUNDED)' : sale.status === 'void' ? ' (IMEFUTWA/VOID)' : '';
  // The fiscal receipt's verification link lets the customer check it on TRA's page (rule 27).
  const fiscal = sale.fiscal ? ` TRA ${sale.fiscal.rctvnum}: ${sale.fiscal.verify_url}` : '';
  const body =
    `${store.name}: Risiti/Receipt ${sale.receipt_number} ${localDate(at, tz)} ${localTime(at, tz)}. ` +
    `Bidhaa/Items ${items}. Jumla/Total ${formatTzs(toCents(sale.total))} (${paidBy(sale)})${state}.${fiscal} Asante! / Thank you!`;
  // Sent in a transaction of its own so the first delivery attempt is over when this answers.
  const outboxId = await withTransaction(ctx, (tx) => tx.messenger.send(tx, { channel: 'sms', to: phone, body, orgId, forCustomer: true }));
  const row = await ctx.db.selectFrom('outbox').selectAll().where('id', '=', outboxId).executeTakeFirstOrThrow();
  const sms = messageState(row);
  return { channel: 'sms', email: null, phone, delivered: row.status === 'sent', failure_reason: sms.reason };
}

export async function emailReceipt(ctx: AuthedContext, id: string, email: string): Promise<{ email: string; delivered: boolean }> {
  const orgId = requireOrg(ctx);
  const sale = await getTransaction(ctx, id);
  const [store, tz] = await Promise.all([
    ctx.db
      .selectFrom('stores')
      .select(['name', 'phone'])
      .where('id', '=', sale.store_id)
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow(),
    orgTimezone(ctx.db, orgId),
  ]);
  const at = Date.parse(sale.created_at);
  // A medicine's line is followed by the lots it came from, as the pharmacist would write them.
  const lines = sale.lines.flatMap((l) => [
    // A pack line: how many packs at one pack's price (its qty is the units they hold); else the quantity in its unit.
    `${l.pack ? `${l.pack.qty} x ${l.product_name} ${l.pack.name} (${l.pack.units})` : `${quantityText(l.qty, l.unit)} x ${l.product_name}`} @ ${formatTzs(toCents(l.unit_price))}${l.pack ? '' : perUnitText(l.unit)} = ${formatTzs(toCents(l.line_total))}`,
    ...l.batches.map((b) => `  Lot ${b.lot_number}, exp ${b.expiry_date}: ${b.qty}`),
  ]);
  const body = [
    store.name,
    `Receipt ${sale.receipt_number}${sale.client_receipt_number ? ` (${sale.client_receipt_number})` : ''}`,
    `${localDate(at, tz)} ${localTime(at, tz)}`,
    '',
    ...lines,
    '',
    `Subtotal: ${formatTzs(toCents(sale.subtotal))}`,
    ...(sale.discount ? [`Discount: -${formatTzs(toCents(sale.discount))}`] : []),
    `Total: ${formatTzs(toCents(sale.total))}`,
    ...(sale.tax ? [`of which VAT: ${formatTzs(toCents(sale.tax))}`] : []),
    `Paid by: ${paidBy(sale)}${sale.status === 'refunded' ? ' (REFUNDED)' : sale.status === 'void' ? ' (VOID)' : ''}`,
    ...(sale.fiscal
      ? ['', `TRA fiscal receipt ${sale.fiscal.rctvnum} (GC ${sale.fiscal.gc}, DC ${sale.fiscal.dc})`, `Verify: ${sale.fiscal.verify_url}`]
      : []),
    '',
    'Asante kwa kununua! / Thank you for shopping with us.',
  ].join('\n');
  await ctx.messenger.send(ctx, { channel: 'email', to: email, subject: `${store.name}: receipt ${sale.receipt_number}`, body });
  return { email, delivered: ctx.messenger.emailDelivers };
}

/** What the cashier is told. */
export function receiptMessage(r: ReceiptSent): string {
  if (r.delivered) return `receipt sent to ${r.email ?? r.phone}`;
  if (r.failure_reason) return `the SMS gateway did not take the receipt: ${r.failure_reason}`;
  return r.channel === 'email'
    ? 'no email service is configured: the receipt was kept in the outbox'
    : 'no SMS service is configured: the receipt was kept in the outbox';
}

/** The one method, or each part of a sale paid several ways (issue 51): "Cash TZS 5,000 + M-Pesa TZS 7,500". */
function paidBy(sale: Transaction): string {
  if (sale.payments.length < 2) return sale.payment_method;
  return sale.payments.map((p) => `${p.method} ${formatTzs(toCents(p.amount))}`).join(' + ');
}
