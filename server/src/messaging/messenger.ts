/**
 * Outgoing SMS and email through a transactional outbox: `send` writes the message in the caller's
 * transaction and delivery starts after commit, so a rolled-back action never texts anyone and a
 * committed one is never forgotten (failed deliveries are retried by `retryFailed`).
 */
import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { afterCommit } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import type { ServiceContext } from '../lib/context.js';
import type { MessageDriver } from './drivers.js';

export interface OutgoingMessage {
  channel: 'sms' | 'email';
  to: string;
  subject?: string;
  body: string;
  attachments?: Array<{ filename: string; content_type: string; content_base64: string }>;
  /** The body carries a code or password. */
  sensitive?: boolean;
  orgId?: string | null;
}

const MAX_ATTEMPTS = 5;

export class Messenger {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly drivers: Record<'sms' | 'email', MessageDriver>,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** True when email leaves the server (not only the outbox). */
  get emailDelivers(): boolean {
    return this.drivers.email.kind !== 'log';
  }

  async send(ctx: ServiceContext, msg: OutgoingMessage): Promise<string> {
    const id = newId();
    await ctx.db
      .insertInto('outbox')
      .values({
        id,
        org_id: msg.orgId ?? ctx.actor?.orgId ?? null,
        channel: msg.channel,
        recipient: msg.to,
        subject: msg.subject ?? null,
        body: msg.body,
        attachments: msg.attachments ? JSON.stringify(msg.attachments) : null,
        sensitive: msg.sensitive ? 1 : 0,
        created_at: this.clock.now(),
        sent_at: null,
        last_error: null,
      })
      .execute();
    afterCommit(ctx, () => this.deliver(id));
    return id;
  }

  async deliver(id: string): Promise<void> {
    const msg = await this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!msg || msg.status === 'sent' || msg.status === 'logged') return;
    const driver = this.drivers[msg.channel];
    try {
      await driver.deliver(msg);
      const delivered = driver.kind !== 'log';
      await this.db
        .updateTable('outbox')
        .set({
          status: delivered ? 'sent' : 'logged',
          attempts: msg.attempts + 1,
          sent_at: this.clock.now(),
          last_error: null,
          ...(delivered && msg.sensitive ? { body: '[redacted after delivery]' } : {}),
        })
        .where('id', '=', id)
        .execute();
    } catch (err) {
      this.log.warn({ err, outbox_id: id, channel: msg.channel }, 'message delivery failed');
      await this.db
        .updateTable('outbox')
        .set({ status: 'failed', attempts: msg.attempts + 1, last_error: String((err as Error).message ?? err).slice(0, 500) })
        .where('id', '=', id)
        .execute();
    }
  }

  /** Retry failed deliveries (called on a timer by the server). */
  async retryFailed(): Promise<void> {
    const rows = await this.db.selectFrom('outbox').select('id').where('status', '=', 'failed').where('attempts', '<', MAX_ATTEMPTS).limit(50).execute();
    for (const { id } of rows) await this.deliver(id);
  }
}
