/**
 * The one filter of a store's sold sales (paid, on credit; refunded and void sales are not sold), as
 * `t`. Here, below every area, so pos's day figures (`storeSoldSales`) and a stock-take's expected
 * (inventory, ranked under pos) read the same rule.
 */
import { SoldStatus } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

export const soldSalesOfStore = (db: Kysely<Database>, at: { orgId: string; storeId: string }) =>
  db
    .selectFrom('transactions as t')
    .where('t.org_id', '=', at.orgId)
    .where('t.store_id', '=', at.storeId)
    .where('t.status', 'in', SoldStatus.options);
