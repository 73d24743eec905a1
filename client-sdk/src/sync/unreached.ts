/**
 * A sale's `source` when its push finds no server (docs/pos.md "How a sale was rung up"). The till
 * learns it has lost the server only when a request fails: a sale rung up between losing it (with
 * no `offline` event from the platform, e.g. a router whose line dropped) and that failure was
 * queued as `online`. A till that syncs on its own pushes a sale as it is rung up; when that push,
 * the first request since the server last answered, reaches no server, the sale did not reach one
 * as it was rung up either: it becomes `offline`, in the queue and on the till's receipt alike. A
 * till that syncs when told pushes when the app chooses, so its failed push changes nothing.
 */
import type { Mutation } from '@duka/shared';
import { sql } from 'kysely';
import type { LocalDb } from '../local/db.js';

export async function unreached(db: LocalDb, batch: Mutation[], since: number | null): Promise<void> {
  if (since === null) return;
  const sales = batch.filter((m) => m.type === 'sale.create' && m.payload.source === 'online' && Date.parse(m.created_at) >= since);
  if (!sales.length) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('queue')
      .set({ payload: sql<string>`json_set(payload, '$.source', 'offline')` })
      .where(
        'id',
        'in',
        sales.map((m) => m.id),
      )
      .where('state', '=', 'pending')
      .execute();
    await trx
      .updateTable('transactions')
      .set({ data: sql<string>`json_set(data, '$.source', 'offline')` })
      .where(
        'id',
        'in',
        sales.map((m) => String(m.payload.id)),
      )
      .execute();
  });
}
