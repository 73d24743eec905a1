/** What the sms area reads of the outbox. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The organisation's SMS a gateway accepted in [from, to), per account: messages, segments and what they cost. */
export function sentSmsByAccount(db: Kysely<Database>, orgId: string, from: number, to: number) {
  return db
    .selectFrom('outbox')
    .select((eb) => [
      'account',
      eb.fn.countAll<number>().as('messages'),
      eb.fn.coalesce(eb.fn.sum<number>('segments'), sql<number>`0`).as('segments'),
      eb.fn.sum<number | null>('cost_cents').as('cost_cents'),
    ])
    .where('org_id', '=', orgId)
    .where('channel', '=', 'sms')
    .where('status', '=', 'sent')
    .where('sent_at', '>=', from)
    .where('sent_at', '<', to)
    .groupBy('account')
    .execute();
}
