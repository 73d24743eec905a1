/** Where one customer's personal data lies: the reads an export and an erasure share. */
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import { ERASED_CUSTOMER_NAME } from '@duka/shared';
import type { Database } from '../../../db/database.js';
import { productUnit } from '../../stock-levels/stock-levels.exports.js';

/** `column IN values`, false for none (an empty IN is not SQL). */
export function anyOf<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, column: string, values: string[]) {
  return values.length ? eb(eb.ref(column as never), 'in', values as never) : sql<boolean>`1 = 0`;
}

/** The customer's sales: theirs by id, and any sale that carries one of their phones. */
export function personSales(db: Kysely<Database>, orgId: string, customerId: string, phones: string[]) {
  return db
    .selectFrom('transactions')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('customer_id', '=', customerId), anyOf(eb, 'customer_phone', phones)]));
}

export function saleLines(db: Kysely<Database>, orgId: string, saleIds: string[]) {
  return db
    .selectFrom('transaction_lines')
    .select(['transaction_id', 'product_name', 'qty', 'unit_price', 'line_total', 'tax'])
    .select(productUnit('transaction_lines.org_id', 'transaction_lines.product_id').as('unit'))
    .where('org_id', '=', orgId)
    .where((eb) => anyOf(eb, 'transaction_id', saleIds))
    .orderBy('transaction_id')
    .orderBy('id')
    .execute();
}

/** Rows of a credit table that are the customer's, oldest first. */
export function customerRows<T extends 'credit_tabs' | 'credit_payments' | 'credit_messages' | 'credit_notes'>(
  db: Kysely<Database>,
  table: T,
  orgId: string,
  customerId: string,
): Promise<Array<Selectable<Database[T]>>> {
  // The four tables share the columns read here; the cast keeps each one's own row type.
  return db
    .selectFrom(table as 'credit_notes')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute() as Promise<Array<Selectable<Database[T]>>>;
}

/** Messages the shop sent to one of the person's phones or emails. */
export function messagesTo(db: Kysely<Database>, orgId: string, recipients: string[]) {
  return db
    .selectFrom('outbox')
    .where('org_id', '=', orgId)
    .where((eb) => anyOf(eb, 'recipient', recipients));
}

/** What a provider reported paid for the person's sales or from their phone. */
export function receivedFrom(db: Kysely<Database>, orgId: string, saleIds: string[], phones: string[]) {
  return db
    .selectFrom('received_payments')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([anyOf(eb, 'matched_sale_id', saleIds), anyOf(eb, 'payer_phone', phones)]));
}

/** Payments asked of the person's phone, or for their sales. */
export function requestedOf(db: Kysely<Database>, orgId: string, saleIds: string[], phones: string[]) {
  return db
    .selectFrom('payment_requests')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([anyOf(eb, 'sale_id', saleIds), anyOf(eb, 'phone', phones)]));
}

/** Rows of the sales' own records (fiscal receipts, the prescription register). */
export function ofSales<T extends 'fiscal_receipts' | 'prescriptions'>(
  db: Kysely<Database>,
  table: T,
  orgId: string,
  saleIds: string[],
): Promise<Array<Selectable<Database[T]>>> {
  return db
    .selectFrom(table as 'prescriptions')
    .selectAll()
    .where('org_id', '=', orgId)
    .where((eb) => anyOf(eb, 'transaction_id', saleIds))
    .orderBy('created_at')
    .execute() as Promise<Array<Selectable<Database[T]>>>;
}

/** The sales keep every figure; the name copied onto them becomes the marker, phone, TIN and wallet go (each part's wallet too). */
export async function anonymiseSales(db: Kysely<Database>, orgId: string, saleIds: string[]) {
  await db
    .updateTable('transaction_payments')
    .set({ phone: null })
    .where('org_id', '=', orgId)
    .where((eb) => anyOf(eb, 'transaction_id', saleIds))
    .where('phone', 'is not', null)
    .execute();
  return db
    .updateTable('transactions')
    .set((eb) => ({
      customer_name: eb.case().when('customer_name', 'is', null).then(null).else(ERASED_CUSTOMER_NAME).end(),
      customer_phone: null,
      customer_tin: null,
      payment_phone: null,
    }))
    .where('org_id', '=', orgId)
    .where((eb) => anyOf(eb, 'id', saleIds))
    .execute();
}

/** The customer keeps id, figures and credit; name, contacts and notes go and they are deactivated. `now`: null leaves `updated_at`. */
export function anonymiseCustomer(db: Kysely<Database>, orgId: string, id: string, now: number | null) {
  return db
    .updateTable('customers')
    .set({
      name: ERASED_CUSTOMER_NAME,
      phone: null,
      email: null,
      notes: null,
      is_active: 0,
      ...(now === null ? {} : { updated_at: now }),
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
