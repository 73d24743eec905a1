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
  status: Generated<'pending' | 'sent' | 'logged' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** When an instance took the row to deliver it; cleared when done. */
  claimed_at: number | null;
}
export type OutboxRow = Selectable<OutboxTable>;
