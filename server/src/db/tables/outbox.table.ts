import type { Generated, Selectable } from 'kysely';

/** How the messenger reaches someone; a driver per channel (messaging/drivers.ts). */
export type MessageChannel = 'sms' | 'email';

export interface OutboxTable {
  id: string;
  org_id: string | null;
  channel: MessageChannel;
  recipient: string;
  subject: string | null;
  body: string;
  /** JSON array of { filename, content_type } with content_base64, or storage_key (a stored file read at delivery). */
  attachments: string | null;
  /** Holds a code or password: the body is redacted once a real driver has delivered it. */
  sensitive: Generated<number>;
  /**
   * `failed` is retried with backoff until MAX_ATTEMPTS; `rejected` was refused for good (a bad key,
   * a bad number) and is never retried.
   */
  status: Generated<'pending' | 'sent' | 'logged' | 'failed' | 'rejected'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** When an instance took the row to deliver it; cleared when done. */
  claimed_at: number | null;
  /** Which gateway took an SMS, and on whose account (`platform`, or `organisation` for its own key). */
  provider: string | null;
  account: 'platform' | 'organisation' | null;
  provider_message_id: string | null;
  /** From the gateway's delivery report: `pending` until one arrives. */
  delivery_status: 'pending' | 'delivered' | 'failed' | null;
  delivery_detail: string | null;
  delivered_at: number | null;
  segments: number | null;
  cost_cents: number | null;
  /** 1: a shop's message to its customer (counts against the plan's SMS when on the platform's account). */
  for_customer: Generated<number>;
  /** A failed message is not tried again before this. */
  next_attempt_at: number | null;
}
export type OutboxRow = Selectable<OutboxTable>;
