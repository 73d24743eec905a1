/** What the owner's mobile-money reconciliation reads: the store's sales of the period and the payments matched to them. */
import { MobileMoneyMethod } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { newMoney } from './matching.queries.js';

export interface SalesPeriod {
  orgId: string;
  storeId: string;
  /** Made at or after (epoch ms); absent with a shift (its sales are those naming it, whatever the till's clock said). */
  from?: number;
  /** Made before. */
  to?: number;
  /** Only the sales this shift took. */
  shiftId?: string;
}

/**
 * The store's mobile-money sales of the period, standing and reversed, with their cashier's name,
 * oldest first. Each by its mobile-money part (issue 51): `payment_method` is the wallet and `total`
 * what the wallet was to receive (a sale paid 5,000 cash + 7,500 M-Pesa is 7,500 of M-Pesa); a sale
 * paid one way has one part, its total. A credit sale whose rest was paid by mobile money counts too.
 * Only new money (`newMoney`): an exchange's new sale counts what its customer paid on top of the
 * old sale's mirrored part, and one wholly paid by that part is not listed (nothing came in for it).
 */
export function mobileMoneySales(db: Kysely<Database>, f: SalesPeriod) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('transaction_payments as tp', (j) =>
      j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id').on('tp.method', 'in', MobileMoneyMethod.options),
    )
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 't.cashier_id').onRef('u.org_id', '=', 't.org_id'))
    .select([
      't.id',
      't.receipt_number',
      't.created_at',
      newMoney().as('total'),
      't.status',
      'tp.method as payment_method',
      't.payment_verification',
      't.payment_phone',
      't.payment_reference',
      't.cashier_id',
      'u.first_name',
      'u.last_name',
    ])
    .where('t.org_id', '=', f.orgId)
    .where('t.store_id', '=', f.storeId)
    .where(newMoney(), '>', 0)
    .where('t.status', 'in', ['paid', 'credit', 'refunded', 'void'])
    .$if(f.from !== undefined, (qb) => qb.where('t.created_at', '>=', f.from!))
    .$if(f.to !== undefined, (qb) => qb.where('t.created_at', '<', f.to!))
    .$if(f.shiftId !== undefined, (qb) => qb.where('t.shift_id', '=', f.shiftId!))
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
}

/** The paid payments matched to these sales. */
export function paymentsMatchedTo(db: Kysely<Database>, orgId: string, saleIds: string[]) {
  if (saleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('received_payments')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('matched_sale_id', 'in', saleIds)
    .where('status', '=', 'paid')
    .orderBy('received_at')
    .orderBy('id')
    .execute();
}
