/** An SMS or email as services hand it to the messenger (messaging/messenger.ts), which stores it in the outbox. */
import type { MessageChannel, OutboxRow } from '../db/tables/outbox.table.js';

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
  /**
   * An SMS the organisation sends its customer (a credit reminder, a receipt): it goes out on the
   * organisation's own gateway account when it has set one. Codes and passwords never do.
   */
  forCustomer?: boolean;
}

/** After this many tries a failing message is given up (its outbox status stays `failed`). */
export const MAX_ATTEMPTS = 5;

/** Where a message stands, as a shop owner reads it. */
export interface MessageState {
  /** `sent`: the gateway took it (or, with no gateway configured, the outbox kept it); `pending`: still trying. */
  status: 'sent' | 'pending' | 'failed';
  /** The gateway's reason for a failure. */
  reason: string | null;
  /** From the gateway's delivery report, when it sends one. */
  delivery: 'pending' | 'delivered' | 'failed' | null;
}

export function messageState(
  row: Pick<OutboxRow, 'status' | 'attempts' | 'last_error' | 'delivery_status' | 'delivery_detail'>,
): MessageState {
  const delivery = row.delivery_status ?? null;
  switch (row.status) {
    case 'sent':
    case 'logged':
      return { status: 'sent', reason: delivery === 'failed' ? row.delivery_detail : null, delivery };
    case 'rejected':
      return { status: 'failed', reason: row.last_error, delivery: null };
    case 'failed':
      return row.attempts >= MAX_ATTEMPTS
        ? { status: 'failed', reason: row.last_error, delivery: null }
        : { status: 'pending', reason: row.last_error, delivery: null };
    default:
      return { status: 'pending', reason: null, delivery: null };
  }
}
