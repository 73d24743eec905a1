/**
 * Domain events (design §3) through a transactional outbox. `publish` writes the event in the
 * caller's transaction; after commit it is handed to each subscriber. A subscriber runs in its own
 * transaction together with the record of its delivery; a failure is logged and retried by
 * `retryPending` (on a timer), and never undoes the sale.
 *
 * Once, across server instances: the delivery record alone would not do it (it is an upsert, so
 * two instances delivering at once would both run the subscriber, then both record `done`). A
 * delivery first takes the event's lease (`event:<id>`, lib/leases.ts), so the after-commit
 * delivery and any instance's retry never run together, and each subscriber's transaction fences
 * it: an instance that stalled past the lease while another took over commits nothing.
 */
import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { insertWrite, type Write } from '../db/dialect.js';
import { crossOrg } from '../db/tenant-scope-check.js';
import { afterCommit, withTransaction } from '../db/transaction.js';
import { iso } from '../lib/clock.js';
import type { Deps, EventPublisher, ServiceContext } from '../lib/context.js';
import type { DomainEvent, EventType, NewEvent } from '../lib/domain-events.js';
import type { EventDeliveryTable } from '../db/tables/events.table.js';
import { type Lease, LeaseLost } from '../lib/leases.js';

/** Handles the events of `types`, each with its typed data. */
export interface Subscriber<K extends EventType = EventType> {
  /** Stable name: deliveries are recorded under it. */
  name: string;
  types: readonly K[];
  /** Whether this event concerns the subscriber at all; events nobody wants cost no delivery. */
  wants?(event: DomainEvent<K>): boolean;
  handle(ctx: ServiceContext, event: DomainEvent<K>): Promise<void>;
}

const MAX_ATTEMPTS = 10;

/** An event by its key: its organisation and id. */
type EventKey = Pick<DomainEvent, 'id' | 'org_id'>;

export class EventBus implements EventPublisher {
  private readonly subscribers: Subscriber[] = [];
  private deps: Deps | undefined;

  /** The dependencies subscribers run with (set once by createDeps). */
  bind(deps: Deps): void {
    this.deps = deps;
  }

  subscribe<K extends EventType>(subscriber: Subscriber<K>): void {
    // Sound because `interested` hands a subscriber only events of its own types.
    this.subscribers.push(subscriber as unknown as Subscriber);
  }

  /** Record `type` in the current transaction; subscribers see it after commit. */
  async publish<K extends EventType>(ctx: ServiceContext, e: NewEvent<K>): Promise<DomainEvent<K>> {
    const prepared = this.prepare(ctx, [e]);
    await ctx.db.insertInto('events').values(prepared.rows).execute();
    prepared.deliver();
    return prepared.events[0]!;
  }

  prepareMany<K extends EventType>(ctx: ServiceContext, events: Array<NewEvent<K>>): { write: Write; deliver(): void } {
    const prepared = this.prepare(ctx, events);
    return { write: insertWrite('events', prepared.rows), deliver: prepared.deliver };
  }

  /** The events' rows, and `deliver` to queue their delivery after commit once the rows are written. */
  private prepare<K extends EventType>(ctx: ServiceContext, list: Array<NewEvent<K>>) {
    const now = ctx.clock.now();
    const events = list.map((e) => {
      const event = {
        type: e.type,
        id: newId(),
        org_id: e.orgId,
        store_id: e.storeId,
        occurred_at: iso(now),
        data: e.data,
      } as DomainEvent<K>;
      // Every DomainEvent<K> is a DomainEvent; the compiler cannot see it through the generic.
      return { event, wanted: this.interested(event as DomainEvent).length > 0 };
    });
    return {
      events: events.map((r) => r.event),
      rows: events.map(({ event, wanted }) => ({
        id: event.id,
        org_id: event.org_id,
        store_id: event.store_id,
        type: event.type,
        payload: JSON.stringify(event.data),
        occurred_at: now,
        delivered: wanted ? 0 : 1,
      })),
      deliver: () => {
        for (const { event, wanted } of events) if (wanted) afterCommit(ctx, () => this.deliver(event));
      },
    };
  }

  private interested(event: DomainEvent): Subscriber[] {
    return this.subscribers.filter((s) => s.types.includes(event.type) && (s.wants?.(event) ?? true));
  }

  /** Hand the event to every subscriber that has not handled it yet (nothing while another delivery of it runs). */
  async deliver(event: EventKey): Promise<void> {
    const deps = this.deps;
    if (!deps) throw new Error('EventBus used before bind()');
    await deps.leases.run(`event:${event.id}`, {}, (lease) => this.deliverHeld(deps, event, lease));
  }

  private async deliverHeld(deps: Deps, key: EventKey, lease: Lease): Promise<void> {
    const eventId = key.id;
    const row = await deps.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .where('org_id', '=', key.org_id)
      .executeTakeFirst();
    if (!row || row.delivered === 1) return;
    // Stored by `publish` from a type-checked event.
    const event = {
      type: row.type,
      id: row.id,
      org_id: row.org_id,
      store_id: row.store_id,
      occurred_at: iso(row.occurred_at),
      data: JSON.parse(row.payload),
    } as DomainEvent;
    const done = new Set(
      (
        await deps.db
          .selectFrom('event_deliveries')
          .select('subscriber')
          .where('org_id', '=', key.org_id)
          .where('event_id', '=', eventId)
          .where('status', '=', 'done')
          .execute()
      ).map((d) => d.subscriber),
    );
    let pending = 0;
    for (const sub of this.interested(event).filter((s) => !done.has(s.name))) {
      const ctx: ServiceContext = { ...deps, actor: null, requestId: `event:${eventId}` };
      try {
        await withTransaction(ctx, async (tx) => {
          await lease.fence(tx.db);
          await sub.handle(tx, event);
          await record(tx.db, event, sub.name, 'done', null, tx.clock.now());
        });
      } catch (err) {
        // Another instance has the event now: what is left is its to do.
        if (err instanceof LeaseLost) return;
        pending++;
        deps.log.error({ err, event_id: eventId, event_type: event.type, subscriber: sub.name }, 'event subscriber failed; will retry');
        await record(deps.db, event, sub.name, 'failed', String((err as Error)?.message ?? err).slice(0, 500), deps.clock.now()).catch(
          () => {},
        );
      }
    }
    if (pending === 0) {
      const ctx: ServiceContext = { ...deps, actor: null, requestId: `event:${eventId}` };
      await withTransaction(ctx, async (tx) => {
        await lease.fence(tx.db);
        await tx.db.updateTable('events').set({ delivered: 1 }).where('id', '=', eventId).where('org_id', '=', key.org_id).execute();
      }).catch((err) => {
        if (!(err instanceof LeaseLost)) throw err;
      });
    }
  }

  /** Deliver events whose subscribers failed or never ran (a crash right after commit). */
  async retryPending(olderThanMs = 5_000): Promise<void> {
    const deps = this.deps!;
    const rows = await deps.db
      .selectFrom('events')
      .select(['id', 'org_id'])
      .where('delivered', '=', 0)
      .where('occurred_at', '<', deps.clock.now() - olderThanMs)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('event_deliveries as d')
              .select('d.event_id')
              .whereRef('d.org_id', '=', 'events.org_id')
              .whereRef('d.event_id', '=', 'events.id')
              .where('d.attempts', '>=', MAX_ATTEMPTS),
          ),
        ),
      )
      .orderBy('occurred_at')
      .limit(100)
      .modifyEnd(crossOrg('job scan'))
      .execute();
    for (const row of rows) await this.deliver(row);
  }
}

async function record(
  db: Kysely<Database>,
  event: Pick<DomainEvent, 'id' | 'org_id'>,
  subscriber: string,
  status: EventDeliveryTable['status'],
  error: string | null,
  now: number,
) {
  await db
    .insertInto('event_deliveries')
    .values({ org_id: event.org_id, event_id: event.id, subscriber, status, attempts: 1, last_error: error, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['org_id', 'event_id', 'subscriber'])
        .doUpdateSet((eb) => ({ status, attempts: eb('event_deliveries.attempts', '+', 1), last_error: error, updated_at: now })),
    )
    .execute();
}
