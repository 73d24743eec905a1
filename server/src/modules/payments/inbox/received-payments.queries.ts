/** Received payments (what providers reported into the shop's accounts), every statement scoped by organisation. */
import type { ReceivedPayment } from '@duka/shared';
import { fromCents } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { ReceivedPaymentRow, ReceivedPaymentTable } from '../../../db/tables/collection.table.js';
import { iso } from '../../../lib/clock.js';

export function toReceivedPayment(row: ReceivedPaymentRow): ReceivedPayment {
  return {
    id: row.id,
    account_id: row.account_id,
    store_id: row.store_id,
    provider: row.provider,
    provider_ref: row.provider_ref,
    reference: row.reference,
    wallet_ref: row.wallet_ref,
    amount: fromCents(Number(row.amount)),
    payer_phone: row.payer_phone,
    network: row.network,
    status: row.status,
    received_at: iso(Number(row.received_at)),
    matched_sale_id: row.matched_sale_id,
  };
}

/** Stores the payment unless the account already has its provider reference; the new row's id, or undefined. */
export function insertReceivedPayment(db: Kysely<Database>, row: Insertable<ReceivedPaymentTable>) {
  return db
    .insertInto('received_payments')
    .values(row)
    .onConflict((oc) => oc.columns(['org_id', 'account_id', 'provider_ref']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export interface ReceivedFilter {
  orgId: string;
  storeId: string;
  from?: number;
  to?: number;
  accountId?: string;
  matched?: boolean;
}

/** The store's received payments: its own account's and the organisation-wide account's. */
export function receivedPayments(db: Kysely<Database>, f: ReceivedFilter) {
  return db
    .selectFrom('received_payments')
    .where('org_id', '=', f.orgId)
    .where((eb) => eb.or([eb('store_id', '=', f.storeId), eb('store_id', 'is', null)]))
    .$if(f.from !== undefined, (qb) => qb.where('received_at', '>=', f.from!))
    .$if(f.to !== undefined, (qb) => qb.where('received_at', '<', f.to!))
    .$if(!!f.accountId, (qb) => qb.where('account_id', '=', f.accountId!))
    .$if(f.matched !== undefined, (qb) => qb.where('matched_sale_id', f.matched ? 'is not' : 'is', null));
}

/** The payment a provider reported, now matched to the sale its request booked. */
export const matchToBookedSale = (db: Kysely<Database>, orgId: string, id: string, saleId: string, now: number) =>
  db
    .updateTable('received_payments')
    .set({ matched_sale_id: saleId, matched_at: now })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .execute();
