/**
 * Outgoing SMS and email through a transactional outbox: `send` writes the message in the caller's
 * transaction and delivery starts after commit, so a rolled-back action never texts anyone and a
 * committed one is never forgotten (failed deliveries are retried by `retryFailed`).
 */
import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { MessageChannel } from '../db/tables/outbox.table.js';
import { afterCommit } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import type { MessageSender, ServiceContext } from '../lib/context.js';
import type { Attachment, OutgoingMessage } from '../lib/outgoing-message.js';
import type { Storage } from '../lib/storage.js';
import type { MessageDriver } from './drivers.js';

const MAX_ATTEMPTS = 5;
/** A delivery claimed longer ago than this was cut short (the process died): it may be taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60_000;
/** A pending message this old was never handed to a driver (the process died after commit). */
const STALE_PENDING_MS = 5 * 60_000;

export class Messenger implements MessageSender {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly drivers: Record<MessageChannel, MessageDriver>,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly storage?: Storage,
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
        claimed_at: null,
      })
      .execute();
    afterCommit(ctx, () => this.deliver(id));
    return id;
  }

  /**
   * Deliver one message. The row is claimed first with a conditional UPDATE, so that of several
   * server instances (or a retry racing the after-commit delivery) only one hands it to the driver.
   */
  async deliver(id: string): Promise<void> {
    const now = this.clock.now();
    const claim = await this.db
      .updateTable('outbox')
      .set({ claimed_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'failed'])
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', now - CLAIM_TIMEOUT_MS)]))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) return;
    const msg = await this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!msg) return;
    const driver = this.drivers[msg.channel];
    try {
      await driver.deliver({ ...msg, attachments: await this.resolveAttachments(msg.attachments) });
      const delivered = driver.kind !== 'log';
      await this.db
        .updateTable('outbox')
        .set({
          status: delivered ? 'sent' : 'logged',
          attempts: msg.attempts + 1,
          sent_at: this.clock.now(),
          last_error: null,
          claimed_at: null,
          ...(delivered && msg.sensitive ? { body: '[redacted after delivery]' } : {}),
        })
        .where('id', '=', id)
        .execute();
    } catch (err) {
      this.log.warn({ err, outbox_id: id, channel: msg.channel }, 'message delivery failed');
      await this.db
        .updateTable('outbox')
        .set({ status: 'failed', attempts: msg.attempts + 1, claimed_at: null, last_error: String((err as Error).message ?? err).slice(0, 500) })
        .where('id', '=', id)
        .execute();
    }
  }

  /** Attachments as the drivers take them: stored files read in as base64 content. */
  private async resolveAttachments(json: string | null): Promise<string | null> {
    if (!json) return json;
    const list = JSON.parse(json) as Attachment[];
    if (!list.some((a) => 'storage_key' in a)) return json;
    const out = [];
    for (const a of list) {
      if (!('storage_key' in a)) {
        out.push(a);
        continue;
      }
      const file = this.storage ? await this.storage.get(a.storage_key) : null;
      if (!file) throw new Error(`attachment ${a.filename} is missing from storage`);
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(Buffer.from(chunk));
      out.push({ filename: a.filename, content_type: a.content_type, content_base64: Buffer.concat(chunks).toString('base64') });
    }
    return JSON.stringify(out);
  }

  /**
   * Retry failed deliveries, and deliver messages left pending by a process that stopped between
   * commit and delivery (called on a timer by the server).
   */
  async retryFailed(): Promise<void> {
    const stale = this.clock.now() - STALE_PENDING_MS;
    const rows = await this.db
      .selectFrom('outbox')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('status', '=', 'failed'), eb('attempts', '<', MAX_ATTEMPTS)]), eb.and([eb('status', '=', 'pending'), eb('created_at', '<', stale)])]))
      .limit(50)
      .execute();
    for (const { id } of rows) await this.deliver(id);
  }
}
