import { type CreditMessage, type CreditNote, type CreditPayment, type CreditTab, OwingTabStatus, fromCents, newId } from '@duka/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import { messageState } from '../../lib/outgoing-message.js';
import { pastDue, tabBalance } from '../customers/customers.exports.js';
import type { CreditNoteTable, CreditPaymentRow, CreditTabRow } from '../../db/tables/credits.table.js';

type CreditNoteRow = Selectable<CreditNoteTable>;

export type CreditTabWithName = CreditTabRow & { customer_name: string };

/** Tabs of `orgId` with their customer's name. */
export function tabsWithNames(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('credit_tabs')
    .innerJoin('customers', (j) =>
      j.onRef('customers.id', '=', 'credit_tabs.customer_id').onRef('customers.org_id', '=', 'credit_tabs.org_id'),
    )
    .selectAll('credit_tabs')
    .select('customers.name as customer_name')
    .where('credit_tabs.org_id', '=', orgId);
}

export function findTab(db: Kysely<Database>, orgId: string, id: string): Promise<CreditTabWithName | undefined> {
  return tabsWithNames(db, orgId).where('credit_tabs.id', '=', id).executeTakeFirst();
}

export const balanceCents = (tab: CreditTabRow) => Number(tab.amount) - Number(tab.paid_amount) - Number(tab.written_off_amount);

/** Overdue: something still owed and the due date (local) before `today`. */
export const isOverdue = (tab: CreditTabRow, today: string) => balanceCents(tab) > 0 && tab.due_date < today;

export function toCreditTab(row: CreditTabWithName, today: string): CreditTab {
  return {
    id: row.id,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    transaction_id: row.transaction_id,
    store_id: row.store_id,
    amount: fromCents(Number(row.amount)),
    paid_amount: fromCents(Number(row.paid_amount)),
    balance: fromCents(balanceCents(row)),
    status: row.status,
    due_date: row.due_date,
    is_overdue: isOverdue(row, today),
    created_at: iso(Number(row.created_at)),
    settled_at: isoOrNull(row.settled_at == null ? null : Number(row.settled_at)),
    write_off_reason: row.write_off_reason,
  };
}

/** Filters of GET /credits, as a query over `tabsWithNames`. */
export function filteredTabs(
  db: Kysely<Database>,
  orgId: string,
  today: string,
  f: { status?: CreditTab['status']; customerId?: string; overdue?: boolean },
) {
  return tabsWithNames(db, orgId)
    .$if(!!f.status, (qb) => qb.where('credit_tabs.status', '=', f.status!))
    .$if(!!f.customerId, (qb) => qb.where('credit_tabs.customer_id', '=', f.customerId!))
    .$if(f.overdue !== undefined, (qb) =>
      qb.where((eb) => {
        const overdue = eb.and([eb(tabBalance(eb), '>', 0), pastDue(eb, today)]);
        return f.overdue ? overdue : eb.not(overdue);
      }),
    );
}

/** The customer's tabs that still owe, oldest first: the order payments are allocated in. */
export function owingTabsOldestFirst(db: Kysely<Database>, orgId: string, customerId: string) {
  return db
    .selectFrom('credit_tabs')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('customer_id', '=', customerId)
    .where('status', 'in', OwingTabStatus.options)
    .orderBy('created_at')
    .orderBy('id');
}

/** What each of these customers of `orgId` owes, in cents (0 for one with nothing owing). */
export async function outstandingByCustomer(db: Kysely<Database>, orgId: string, customerIds: string[]): Promise<Map<string, number>> {
  const owed = new Map(customerIds.map((id) => [id, 0]));
  if (customerIds.length === 0) return owed;
  const rows = await db
    .selectFrom('credit_tabs')
    .select((eb) => ['credit_tabs.customer_id', eb.fn.coalesce(eb.fn.sum<number>(tabBalance(eb)), eb.lit(0)).as('owed')])
    .where('org_id', '=', orgId)
    .where('customer_id', 'in', customerIds)
    .where('status', 'in', OwingTabStatus.options)
    .groupBy('customer_id')
    .execute();
  for (const r of rows) owed.set(r.customer_id, Number(r.owed));
  return owed;
}

/**
 * Write off what is still owed on tab `id` (a debt forgiven, or a voided or refunded credit sale):
 * `writtenOff` is the tab's written-off total afterwards.
 */
export async function writeOffTabRow(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  writtenOff: number,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('credit_tabs')
    .set({
      status: 'written_off',
      written_off_amount: writtenOff,
      write_off_reason: reason,
      written_off_at: now,
      updated_at: now,
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** Part of a payment allocated to tab `id`: what the tab has been paid in all, and the status that leaves it in. */
export async function updateTabPaid(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  paid: Pick<CreditTabRow, 'paid_amount' | 'settled_at'> & { status: 'settled' | 'partially_paid' },
  now: number,
): Promise<void> {
  await db
    .updateTable('credit_tabs')
    .set({
      paid_amount: paid.paid_amount,
      status: paid.status,
      settled_at: paid.settled_at,
      updated_at: now,
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function insertCreditPayment(db: Kysely<Database>, p: CreditPaymentRow): Promise<void> {
  await db
    .insertInto('credit_payments')
    .values({
      id: p.id,
      org_id: p.org_id,
      store_id: p.store_id,
      customer_id: p.customer_id,
      amount: p.amount,
      method: p.method,
      reference: p.reference,
      note: p.note,
      received_by: p.received_by,
      shift_id: p.shift_id,
      created_at: p.created_at,
    })
    .execute();
}

/** The customer's payments, newest first (without their allocations: see `withAllocations`). */
export function customerPayments(db: Kysely<Database>, orgId: string, customerId: string) {
  return db
    .selectFrom('credit_payments')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Payments of `orgId` with their allocations (two queries, however many payments). */
export async function withAllocations(db: Kysely<Database>, orgId: string, payments: CreditPaymentRow[]): Promise<CreditPayment[]> {
  const ids = payments.map((p) => p.id);
  const allocations = ids.length
    ? await db
        .selectFrom('credit_allocations')
        .innerJoin('credit_tabs', (j) =>
          j.onRef('credit_tabs.id', '=', 'credit_allocations.tab_id').onRef('credit_tabs.org_id', '=', 'credit_allocations.org_id'),
        )
        .select(['credit_allocations.payment_id', 'credit_allocations.tab_id', 'credit_allocations.amount'])
        .where('credit_allocations.org_id', '=', orgId)
        .where('credit_allocations.payment_id', 'in', ids)
        .orderBy('credit_tabs.created_at')
        .orderBy('credit_tabs.id')
        .execute()
    : [];
  return payments.map((p) => ({
    id: p.id,
    customer_id: p.customer_id,
    store_id: p.store_id,
    amount: fromCents(Number(p.amount)),
    method: p.method as CreditPayment['method'],
    reference: p.reference,
    note: p.note,
    received_by: p.received_by,
    created_at: iso(Number(p.created_at)),
    allocations: allocations.filter((a) => a.payment_id === p.id).map((a) => ({ tab_id: a.tab_id, amount: fromCents(Number(a.amount)) })),
  }));
}

/** Credit messages with the state of the SMS that carries each texted reminder. */
export function messagesWithDelivery(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('credit_messages')
    .leftJoin('outbox', 'outbox.id', 'credit_messages.outbox_id')
    .selectAll('credit_messages')
    .select([
      'outbox.status as sms_status',
      'outbox.attempts as sms_attempts',
      'outbox.last_error as sms_error',
      'outbox.delivery_status as sms_delivery',
      'outbox.delivery_detail as sms_delivery_detail',
    ])
    .where('credit_messages.org_id', '=', orgId);
}
export type CreditMessageWithDelivery = Awaited<ReturnType<ReturnType<typeof messagesWithDelivery>['executeTakeFirstOrThrow']>>;

export function toCreditMessage(row: CreditMessageWithDelivery): CreditMessage {
  const sms = row.sms_status
    ? messageState({
        status: row.sms_status,
        attempts: row.sms_attempts ?? 0,
        last_error: row.sms_error,
        delivery_status: row.sms_delivery,
        delivery_detail: row.sms_delivery_detail,
      })
    : null;
  return {
    id: row.id,
    customer_id: row.customer_id,
    kind: row.kind,
    body: row.body,
    status: sms ? sms.status : (row.status as CreditMessage['status']),
    failure_reason: sms?.reason ?? null,
    delivery: sms?.delivery ?? null,
    sent_by: row.sent_by,
    created_at: iso(Number(row.created_at)),
  };
}

export function toCreditNote(row: CreditNoteRow): CreditNote {
  return { id: row.id, customer_id: row.customer_id, body: row.body, author_id: row.author_id, created_at: iso(Number(row.created_at)) };
}

/** The customer's credit notes, newest first. */
export function customerNotes(db: Kysely<Database>, orgId: string, customerId: string) {
  return db
    .selectFrom('credit_notes')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A new note on the customer's credit; the row as written. */
export function insertCreditNote(db: Kysely<Database>, n: Omit<CreditNoteRow, 'id'>): Promise<CreditNoteRow> {
  return db
    .insertInto('credit_notes')
    .values({
      id: newId(),
      org_id: n.org_id,
      customer_id: n.customer_id,
      body: n.body,
      author_id: n.author_id,
      created_at: n.created_at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
