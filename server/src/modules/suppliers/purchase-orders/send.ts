/**
 * Sending a draft order to its supplier: one SMS, written to the outbox in the same transaction as
 * the status change (delivered after commit by the SMS provider; a rolled-back send texts nobody).
 * It goes out on the organisation's own SMS account when it has one, else counts against the plan's
 * SMS, as a message to a customer does.
 */
import type { PurchaseOrder } from '@duka/shared';
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

/** "PO-1A2B3C4D from Duka Mama Ali (Kariakoo): 10 x Crate of 24 Soda; 5 kg Sukari." */
export function orderMessage(order: PurchaseOrder, shop: string, store: string): string {
  const lines = order.lines.map((l) =>
    l.pack
      ? `${l.qty} x ${l.pack.name} ${l.product_name}`
      : `${l.unit === 'piece' ? `${l.qty} x` : `${l.ordered} ${l.unit}`} ${l.product_name}`,
  );
  return `Purchase order ${order.reference} from ${shop} (${store}): ${lines.join('; ')}. Please confirm.`;
}

export async function sendPurchaseOrder(ctx: AuthedContext, id: string): Promise<PurchaseOrder> {
  const { key, row } = await requireOrder(ctx, id);
  const supplier = await requireSupplier(ctx, row.supplier_id);
  // A supplier's phone is free text (`0222 861 000`): texted in E.164, or refused when it is not a number.
  const to = supplier.phone ? toE164(supplier.phone) : null;
  if (!to) throw new BusinessRuleError(`${supplier.name} has no phone number to text`, 'BUSINESS_RULE', 'supplier.phone');
  await requireCustomerSmsAllowance(ctx, key.orgId);
  return withTransaction(ctx, async (tx) => {
    const locked = (await q.lockOrder(tx, key, id))!;
    if (locked.status !== 'draft')
      throw new InvalidStateError(`this purchase order is ${locked.status.replace('_', ' ')}: only a draft is sent`);
    const [org, store] = await Promise.all([
      tx.db.selectFrom('organisations').select('name').where('id', '=', key.orgId).executeTakeFirstOrThrow(),
      tx.db.selectFrom('stores').select('name').where('org_id', '=', key.orgId).where('id', '=', key.storeId).executeTakeFirstOrThrow(),
    ]);
    const body = orderMessage(await getPurchaseOrder(tx, id), org.name, store.name);
    const outboxId = await tx.messenger.send(tx, { channel: 'sms', to, body, orgId: key.orgId, forCustomer: true });
    const now = tx.clock.now();
    await q.updateOrder(tx.db, { ...key, id }, { status: 'sent', outbox_id: outboxId, sent_to: to, sent_at: now, updated_at: now });
    await recordAudit(tx, {
      action: 'purchase_order.send',
      description: `Sent purchase order ${orderReference(id)} to ${supplier.name} by SMS`,
      entity: 'purchase_order',
      entityId: id,
    });
    return getPurchaseOrder(tx, id);
  });
}
