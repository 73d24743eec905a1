import type { Generated } from 'kysely';

/** The transactional event outbox: written with the change, delivered to subscribers after commit. */
export interface EventTable {
  id: string;
  org_id: string;
  store_id: string | null;
  type: string;
  /** JSON of the event's `data`. */
  payload: string;
  occurred_at: number;
  /** 1 once every subscriber has handled it. */
  delivered: Generated<number>;
}

export interface EventDeliveryTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  event_id: string;
  subscriber: string;
  status: 'done' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  updated_at: number;
}
