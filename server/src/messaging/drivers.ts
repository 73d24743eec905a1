/**
 * Delivery drivers behind the outbox. The default writes the message to the log (the outbox row is
 * the record), so OTPs and temporary passwords are readable in development and tests; SMTP is used
 * for email when SMTP_URL is set, and an SMS gateway (sms/sms-driver.ts) when one is configured.
 */
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { OutboxRow } from '../db/tables/outbox.table.js';

/** What became of one delivery: whether it left the server, and the gateway's record of it. */
export interface Delivered {
  left: boolean;
  provider?: string;
  providerMessageId?: string;
  segments?: number;
  costCents?: number | null;
}

export interface MessageDriver {
  /** 'log' means nothing leaves the server; `sms` may still log a message whose account has no gateway. */
  readonly kind: 'log' | 'smtp' | 'sms';
  /** Throws to have the message retried; `SmsRejected` with `permanent` to give it up. */
  deliver(msg: OutboxRow): Promise<Delivered>;
}

const LOGGED: Delivered = { left: false };

export function logDriver(log: Logger, showBody: boolean): MessageDriver {
  return {
    kind: 'log',
    async deliver(msg) {
      log.info(
        {
          outbox_id: msg.id,
          channel: msg.channel,
          to: msg.recipient,
          subject: msg.subject,
          body: showBody || !msg.sensitive ? msg.body : '[redacted]',
        },
        'message kept in outbox (no delivery driver configured)',
      );
      return LOGGED;
    },
  };
}

export function smtpDriver(url: string, from: string): MessageDriver {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async deliver(msg) {
      const attachments = msg.attachments
        ? (JSON.parse(msg.attachments) as Array<{ filename: string; content_type: string; content_base64: string }>).map((a) => ({
            filename: a.filename,
            contentType: a.content_type,
            content: Buffer.from(a.content_base64, 'base64'),
          }))
        : undefined;
      await transport.sendMail({ from, to: msg.recipient, subject: msg.subject ?? '', text: msg.body, attachments });
      return { left: true };
    },
  };
}
