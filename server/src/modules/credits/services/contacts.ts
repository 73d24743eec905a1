/** Chasing a debt: an SMS reminder the server sends, contacts logged by hand, and notes. */
import { type AddCreditNoteInput, type CreditMessage, type CreditNote, formatTzs, type LogCreditMessageInput, newId } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError } from '../../../lib/errors.js';
import { requireCustomer } from '../../customers/customers.exports.js';
import { insertCreditNote, messagesWithDelivery, toCreditMessage, toCreditNote } from '../credits.queries.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { requireCustomerSmsAllowance } from '../../sms/sms.exports.js';

export function reminderBody(customerName: string, shopName: string, owedCents: number): string {
  const amount = formatTzs(owedCents);
  return (
    `Habari ${customerName}, deni lako kwa ${shopName} ni ${amount}. Tafadhali lipa mapema. Asante! / ` +
    `Hello ${customerName}, you owe ${shopName} ${amount}. Please pay at your earliest convenience. Thank you!`
  );
}

async function insertMessage(
  ctx: AuthedContext,
  orgId: string,
  customerId: string,
  m: { kind: CreditMessage['kind']; body: string; status: 'sent' | 'logged'; outbox_id?: string },
) {
  const id = newId();
  await ctx.db
    .insertInto('credit_messages')
    .values({ id, org_id: orgId, customer_id: customerId, outbox_id: null, ...m, sent_by: ctx.actor.userId, created_at: ctx.clock.now() })
    .execute();
  return id;
}

const readMessage = async (ctx: AuthedContext, orgId: string, id: string) =>
  toCreditMessage(await messagesWithDelivery(ctx.db, orgId).where('credit_messages.id', '=', id).executeTakeFirstOrThrow());

/**
 * Text the customer what they owe (Swahili and English), through the outbox: sent only if this
 * commits, on the organisation's own SMS account when it has one. The first delivery attempt runs
 * right after the commit, so the answer says whether the gateway took it (`sent`), refused it
 * (`failed`, with its reason) or is being retried (`pending`).
 */
export async function sendReminder(ctx: AuthedContext, customerId: string): Promise<CreditMessage> {
  const orgId = requireOrg(ctx);
  const customer = await requireCustomer(ctx, customerId);
  const owed = Number(customer.outstanding ?? 0);
  if (owed <= 0) throw new BusinessRuleError(`${customer.name} owes nothing`);
  if (!customer.phone) throw new BusinessRuleError(`${customer.name} has no phone number to text`, 'BUSINESS_RULE', 'phone');
  const org = await ctx.db.selectFrom('organisations').select('name').where('id', '=', orgId).executeTakeFirstOrThrow();
  await requireCustomerSmsAllowance(ctx, orgId);
  const body = reminderBody(customer.name, org.name, owed);
  const id = await withTransaction(ctx, async (tx) => {
    const outboxId = await tx.messenger.send(tx, { channel: 'sms', to: customer.phone!, body, orgId, forCustomer: true });
    const messageId = await insertMessage(tx, orgId, customerId, { kind: 'sms', body, status: 'sent', outbox_id: outboxId });
    await recordAudit(tx, {
      action: 'credit.remind',
      description: `Sent a credit reminder to ${customer.name}`,
      entity: 'customer',
      entityId: customerId,
    });
    return messageId;
  });
  return readMessage(ctx, orgId, id);
}

/** A WhatsApp message, call or SMS the shop made itself, kept with the customer's credit record. */
export async function logCreditMessage(ctx: AuthedContext, customerId: string, input: LogCreditMessageInput): Promise<CreditMessage> {
  const orgId = requireOrg(ctx);
  const customer = await requireCustomer(ctx, customerId);
  const id = await withTransaction(ctx, async (tx) => {
    const messageId = await insertMessage(tx, orgId, customerId, { kind: input.kind, body: input.body, status: 'logged' });
    await recordAudit(tx, {
      action: 'credit.message',
      description: `Logged a ${input.kind} to ${customer.name}`,
      entity: 'customer',
      entityId: customerId,
    });
    return messageId;
  });
  return readMessage(ctx, orgId, id);
}

export async function addCreditNote(ctx: AuthedContext, customerId: string, input: AddCreditNoteInput): Promise<CreditNote> {
  const orgId = requireOrg(ctx);
  const customer = await requireCustomer(ctx, customerId);
  return withTransaction(ctx, async (tx) => {
    const row = await insertCreditNote(tx.db, {
      org_id: orgId,
      customer_id: customerId,
      body: input.body,
      author_id: ctx.actor.userId,
      created_at: tx.clock.now(),
    });
    await recordAudit(tx, {
      action: 'credit.note',
      description: `Added a credit note on ${customer.name}`,
      entity: 'customer',
      entityId: customerId,
    });
    return toCreditNote(row);
  });
}
