/** The till times of a stock-take's counts, for expected at the moment of the count (expected.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';

/**
 * Per line (`take:product`), the earliest till time of its counts, each no later than its arrival:
 * a till whose clock runs ahead cannot place a count after the server had it.
 */
export async function countStarts(db: Kysely<Database>, orgId: string, takeIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('stock_take_counts')
    .select((eb) => [
      'stock_take_id',
      'product_id',
      eb.fn
        .min(eb.case().when('counted_at', '<', eb.ref('received_at')).then(eb.ref('counted_at')).else(eb.ref('received_at')).end())
        .as('t0'),
    ])
    .where('org_id', '=', orgId)
    .where('stock_take_id', 'in', takeIds)
    .groupBy(['stock_take_id', 'product_id'])
    .execute();
  return new Map(rows.map((r) => [`${r.stock_take_id}:${r.product_id}`, Number(r.t0)]));
}
