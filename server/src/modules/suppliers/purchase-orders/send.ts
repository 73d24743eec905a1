/**
 * Sending a draft order to its supplier: one SMS or one email, the owner's choice, written to the
 * outbox in the same transaction as the status change (delivered after commit; a rolled-back send
 * reaches nobody). An SMS goes out on the organisation's own SMS account when it has one, else
 * counts against the plan's SMS, as a message to a customer does; an email costs the plan nothing.
 */
import type { PurchaseOrder, PurchaseOrderChannel, SendPurchaseOrderInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError, InvalidStateError } from '../../../lib/errors.js';
import { toE164 } from '../../../lib/phone.js';
import { requireCustomerSmsAllowance } from '../../sms/sms.exports.js';
import { requireSupplier } from '../services/suppliers.js';
import { orderReference } from './answer.js';
import { getPurchaseOrder, requireOrder } from './purchase-orders.js';
import * as q from './purchase-orders.queries.js';

/** An order's lines as the supplier reads them: "10 x Carton Soda", "5 kg Sukari". */
const orderLines = (order: PurchaseOrder) =>
  order.lines.map((l) =>
    l.pack
      ? `${l.qty} x ${l.pack.name} ${l.product_name}`
      : `${l.unit === 'piece' ? `${l.qty} x` : `${l.ordered} ${l.unit}`} ${l.product_name}`,
  );

/** "Purchase order PO-1A2B3C4D from Duka Mama Ali (Kariakoo): 10 x Crate of 24 Soda; 5 kg Sukari. Please confirm." */
export function orderMessage(order: PurchaseOrder, shop: string, store: string): string {
  return `Purchase order ${order.reference} from ${shop} (${store}): ${orderLines(order).join('; ')}. Please confirm.`;
}

/** The email: a line per product with its expected cost, the total and the note. */
export function orderEmail(order: PurchaseOrder, shop: string, store: string): { subject: string; body: string } {
  const lines = orderLines(order).map((text, i) => `- ${text} at TZS ${order.lines[i]!.unit_cost}${order.lines[i]!.pack ? ' a pack' : ''}`);
  const note = order.note ? `\nNote: ${order.note}\n` : '';
  return {
    subject: `Purchase order ${order.reference} from ${shop} (${store})`,
    body: `Hello,\n\n${shop} (${store}) orders:\n${lines.join('\n')}\n\nExpected total: TZS ${order.total_value}\n${note}\nPlease confirm by replying with what you can deliver and when. Quote ${order.reference} on your invoice.\n`,
  };
}

/** Where the order goes on that channel, or 422 naming the contact the supplier lacks. */
function recipient(supplier: { name: string; phone: string | null; email: string | null }, channel: PurchaseOrderChannel): string {
  if (channel === 'email') {
    if (!supplier.email)
      throw new BusinessRuleError(`${supplier.name} has no email address to write to`, 'BUSINESS_RULE', 'supplier.email');
    return supplier.email;
  }
  // A supplier's phone is free text (`0222 861 000`): texted in E.164, or refused when it is not a number.
  const to = supplier.phone ? toE164(supplier.phone) : null;
  if (!to) throw new BusinessRuleError(`${supplier.name} has no phone number to text`, 'BUSINESS_RULE', 'supplier.phone');
  return to;
}

export async function sendPurchaseOrder(ctx: AuthedContext, id: string, input: SendPurchaseOrderInput = {}): Promise<PurchaseOrder> {
  const channel = input.channel ?? 'sms';
  const { key, row } = await requireOrder(ctx, id);
  const supplier = await requireSupplier(ctx, row.supplier_id);
  const to = recipient(supplier, channel);
  if (channel === 'sms') await requireCustomerSmsAllowance(ctx, key.orgId);
  return withTransaction(ctx, async (tx) => {
    const locked = (await q.lockOrder(tx, key, id))!;
    if (locked.status !== 'draft')
      throw new InvalidStateError(`this purchase order is ${locked.status.replace('_', ' ')}: only a draft is sent`);
    const [org, store] = await Promise.all([
      tx.db.selectFrom('organisations').select('name').where('id', '=', key.orgId).executeTakeFirstOrThrow(),
      tx.db.selectFrom('stores').select('name').where('org_id', '=', key.orgId).where('id', '=', key.storeId).executeTakeFirstOrThrow(),
    ]);
    const order = await getPurchaseOrder(tx, id);
    const message = channel === 'sms' ? { body: orderMessage(order, org.name, store.name) } : orderEmail(order, org.name, store.name);
    const outboxId = await tx.messenger.send(tx, { channel, to, ...message, orgId: key.orgId, forCustomer: true });
    const now = tx.clock.now();
    await q.updateOrder(tx.db, { ...key, id }, { status: 'sent', outbox_id: outboxId, sent_to: to, sent_at: now, updated_at: now });
    await recordAudit(tx, {
      action: 'purchase_order.send',
      description: `Sent purchase order ${orderReference(id)} to ${supplier.name} by ${channel === 'sms' ? 'SMS' : 'email'}`,
      entity: 'purchase_order',
      entityId: id,
    });
    return getPurchaseOrder(tx, id);
  });
}
