/**
 * Outgoing SMS and email through a transactional outbox: `send` writes the message in the caller's
 * transaction and delivery starts after commit, so a rolled-back action never texts anyone and a
 * committed one is never forgotten. A failed delivery is retried with backoff by `retryFailed`; one
 * the gateway refuses for good (a bad key or number) is marked `rejected` and left alone.
 */
import { newId } from '@duka/shared';
import { type Kysely, sql, type Updateable } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { MessageChannel, OutboxTable } from '../db/tables/outbox.table.js';
import { afterCommit } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import type { Leases } from '../lib/leases.js';
import type { MessageSender, ServiceContext } from '../lib/context.js';
import { type Attachment, MAX_ATTEMPTS, type OutgoingMessage } from '../lib/outgoing-message.js';
import type { Storage } from '../lib/storage.js';
import type { MessageDriver } from './drivers.js';
import { SmsRejected } from './sms/sms-provider.js';

/** Backoff between tries: 30 s, 2 min, 8 min, 32 min; a gateway outage of an hour loses nothing. */
export const retryDelayMs = (attempts: number) => 30_000 * 4 ** (attempts - 1);
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
    /** Claims are judged by the clock leases are (the database's, on Postgres). */
    private readonly leases: Pick<Leases, 'now'>,
    private readonly storage?: Storage,
    /** Where `backlog()` reads (the probes' connection): it must answer while requests queue. */
    private readonly probeDb: Kysely<Database> = db,
  ) {}

  /**
   * What is still to be delivered, by channel and status, and when the oldest of it was written:
   * for the metrics and the readiness probe (an outbox that stops draining is an outage shops
   * notice only when their customers' messages never come).
   */
  async backlog(): Promise<{ counts: Array<{ channel: string; status: string; count: number }>; oldest: number | null }> {
    const rows = await this.probeDb
      .selectFrom('outbox')
      .select(['channel', 'status', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('created_at').as('oldest')])
      .where('status', 'in', ['pending', 'failed'])
      .groupBy(['channel', 'status'])
      .execute();
    const oldest = rows.reduce<number | null>(
      (min, r) => (r.oldest !== null && (min === null || Number(r.oldest) < min) ? Number(r.oldest) : min),
      null,
    );
    return { counts: rows.map((r) => ({ channel: r.channel, status: r.status, count: Number(r.n) })), oldest };
  }

  /** True when email leaves the server (not only the outbox). */
  get emailDelivers(): boolean {
    return this.drivers.email.kind !== 'log';
  }

  async send(ctx: ServiceContext, msg: OutgoingMessage): Promise<string> {
    const id = newId();
    const orgId = msg.orgId ?? ctx.actor?.orgId ?? null;
    await ctx.db
      .insertInto('outbox')
      .values({
        id,
        org_id: orgId,
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
        account: msg.channel === 'sms' ? await this.accountFor(ctx, msg, orgId) : null,
        for_customer: msg.forCustomer ? 1 : 0,
      })
      .execute();
    afterCommit(ctx, () => this.deliver(id));
    return id;
  }

  /** A customer message goes out on the organisation's own gateway account when it has set one. */
  private async accountFor(ctx: ServiceContext, msg: OutgoingMessage, orgId: string | null): Promise<'platform' | 'organisation'> {
    if (!msg.forCustomer || !orgId) return 'platform';
    const org = await ctx.db
      .selectFrom('organisations')
      .select(['sms_provider', 'sms_api_key_enc'])
      .where('id', '=', orgId)
      .executeTakeFirst();
    return org?.sms_provider && org.sms_api_key_enc ? 'organisation' : 'platform';
  }

  /**
   * Deliver one message. The row is claimed first with a conditional UPDATE, so that of several
   * server instances (or a retry racing the after-commit delivery) only one hands it to the driver.
   * The claim's time is the database's (lib/leases.ts), and the outcome is written only while the
   * claim is still this call's: one that stalled past CLAIM_TIMEOUT_MS while another instance took
   * the message over leaves that instance's outcome alone.
   */
  async deliver(id: string): Promise<void> {
    const now = this.leases.now();
    const claim = await this.db
      .updateTable('outbox')
      .set({ claimed_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'failed'])
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', sql<number>`${now} - ${CLAIM_TIMEOUT_MS}`)]))
      .returning('claimed_at')
      .executeTakeFirst();
    if (!claim) return;
    const mine = Number(claim.claimed_at);
    const msg = await this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!msg) return;
    const attempts = msg.attempts + 1;
    try {
      const done = await this.drivers[msg.channel].deliver({ ...msg, attachments: await this.resolveAttachments(msg.attachments) });
      await this.settle(id, mine, {
        status: done.left ? 'sent' : 'logged',
        attempts,
        sent_at: this.clock.now(),
        last_error: null,
        claimed_at: null,
        next_attempt_at: null,
        provider: done.provider ?? null,
        provider_message_id: done.providerMessageId ?? null,
        segments: done.segments ?? null,
        cost_cents: done.costCents ?? null,
        delivery_status: done.providerMessageId ? 'pending' : null,
        ...(done.left && msg.sensitive ? { body: '[redacted after delivery]' } : {}),
      });
    } catch (err) {
      const permanent = err instanceof SmsRejected && err.permanent;
      const reason = err instanceof SmsRejected ? err.reason : String((err as Error).message ?? err);
      this.log.warn(
        { err: permanent ? undefined : err, reason, outbox_id: id, channel: msg.channel, attempts },
        permanent ? 'message refused for good' : 'message delivery failed',
      );
      await this.settle(id, mine, {
        status: permanent ? 'rejected' : 'failed',
        attempts,
        claimed_at: null,
        last_error: reason.slice(0, 500),
        next_attempt_at: permanent || attempts >= MAX_ATTEMPTS ? null : this.clock.now() + retryDelayMs(attempts),
      });
    }
  }

  /** Write a delivery's outcome, only while the message is still claimed by it (`claimedAt`). */
  private async settle(id: string, claimedAt: number, outcome: Updateable<OutboxTable>): Promise<void> {
    const res = await this.db
      .updateTable('outbox')
      .set(outcome)
      .where('id', '=', id)
      .where('claimed_at', '=', claimedAt)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0)
      this.log.warn({ outbox_id: id }, 'message claim lost before its outcome was written; the instance that took it over records its own');
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
    const now = this.clock.now();
    const stale = now - STALE_PENDING_MS;
    const rows = await this.probeDb
      .selectFrom('outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'failed'),
            eb('attempts', '<', MAX_ATTEMPTS),
            eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]),
          ]),
          eb.and([eb('status', '=', 'pending'), eb('created_at', '<', stale)]),
        ]),
      )
      .limit(50)
      .execute();
    for (const { id } of rows) await this.deliver(id);
  }
}
