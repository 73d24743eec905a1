/** Emailing a receipt through the email driver (the outbox when no email service is configured). */
import { formatTzs, toCents } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { localDate, localTime } from '../../../lib/time.js';
import { orgTimezone } from '../../accounts/accounts.queries.js';
import { getTransaction } from './transactions.js';
import { requireOrg } from '../../../lib/auth/authorize.js';

export async function emailReceipt(ctx: AuthedContext, id: string, email: string): Promise<{ email: string; delivered: boolean }> {
  const sale = await getTransaction(ctx, id);
  const [store, tz] = await Promise.all([
    ctx.db.selectFrom('stores').select(['name', 'phone']).where('id', '=', sale.store_id).executeTakeFirstOrThrow(),
    orgTimezone(ctx.db, requireOrg(ctx)),
  ]);
  const at = Date.parse(sale.created_at);
  // A medicine's line is followed by the lots it came from, as the pharmacist would write them.
  const lines = sale.lines.flatMap((l) => [
    `${l.qty} x ${l.product_name} @ ${formatTzs(toCents(l.unit_price))} = ${formatTzs(toCents(l.line_total))}`,
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
    `Paid by: ${sale.payment_method}${sale.status === 'refunded' ? ' (REFUNDED)' : sale.status === 'void' ? ' (VOID)' : ''}`,
    '',
    'Asante kwa kununua! / Thank you for shopping with us.',
  ].join('\n');
  await ctx.messenger.send(ctx, { channel: 'email', to: email, subject: `${store.name}: receipt ${sale.receipt_number}`, body });
  return { email, delivered: ctx.messenger.emailDelivers };
}
