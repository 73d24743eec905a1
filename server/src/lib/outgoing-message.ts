/** An SMS or email as services hand it to the messenger (messaging/messenger.ts), which stores it in the outbox. */
import type { MessageChannel } from '../db/tables/outbox.table.js';

/**
 * An email attachment: inline content, or a file in storage (a report export) read when the
 * message is delivered, so the outbox row stays small.
 */
export type Attachment = { filename: string; content_type: string } & ({ content_base64: string } | { storage_key: string });

export interface OutgoingMessage {
  channel: MessageChannel;
  to: string;
  subject?: string;
  body: string;
  attachments?: Attachment[];
  /** The body carries a code or password. */
  sensitive?: boolean;
  orgId?: string | null;
}
