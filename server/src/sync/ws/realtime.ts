/**
 * The realtime hub (design §4, "Realtime"). Services tell it what they committed; it publishes
 * that on the database's fan-out channel (Postgres LISTEN/NOTIFY across server instances, an
 * in-memory emitter on SQLite), and every instance hands what it receives to its own websocket
 * peers of that organisation (and store, for store-scoped messages).
 *
 * What travels between instances is small and never the data itself where it can be read back:
 * a `stock` event names the products and each receiving instance reads the committed level.
 * Events raised in one tick go out together in as few NOTIFYs as fit under the payload limit.
 */
import type { Notification, PaymentRequestState, ServerMessage } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CommittedChanges } from '../../db/change-log.js';
import { type DbHandle, MAX_PUBLISH_BYTES, type Unsubscribe } from '../../db/handle.js';
import type { Database } from '../../db/database.js';
import { sessionActive } from '../../lib/auth/sessions.js';
import type { RealtimeFeed, RevokedTarget } from '../../lib/context.js';

export const REALTIME_CHANNEL = 'duka_realtime';

/** A websocket connection as the hub sees it (see socket.ts). */
export interface Peer {
  readonly orgId: string;
  readonly storeId: string | null;
  readonly userId: string;
  readonly sid: string;
  /** The organisation's version moved to `version` in something this peer can see. */
  poke(version: number): void;
  /** Takes a store's stock levels as one `stocks` frame (else a `stock` frame each). */
  readonly stocks: boolean;
  /** A message serialised once for every peer it goes to. */
  sendText(text: string): void;
  /** Its session was revoked: close it. */
  revoke(): void;
}

/** Between instances. Short keys: the NOTIFY payload is limited. */
type Event =
  | { k: 'c'; o: string; v: number; s: Array<string | null> }
  | { k: 's'; o: string; s: string; p: string[] }
  | { k: 'n'; o: string; s: string; id: string; n?: Notification }
  | { k: 'p'; o: string; s: string; p: PaymentRequestState }
  | { k: 'r'; sid?: string; u?: string; x?: string }
  | { k: 'u'; u: string };

const MAX_IDS_PER_EVENT = 100;
const MAX_STORES_PER_EVENT = 100;

type Bus = Pick<DbHandle, 'publish' | 'subscribe'>;

/** Reads a committed notification of a store (null when gone); given by app.ts from the notifications area. */
export type NotificationLoader = (orgId: string, storeId: string, id: string) => Promise<Notification | null>;

export class Realtime implements RealtimeFeed {
  private readonly peers = new Map<string, Set<Peer>>();
  private outgoing: Event[] = [];
  private flushing = false;
  private subscription: Promise<Unsubscribe> | null = null;
  /** Stock levels to read and send, per organisation and store; read one batch at a time, in order. */
  private stockWanted = new Map<string, { orgId: string; storeId: string; ids: Set<string> }>();
  private stockReading = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly loadNotification: NotificationLoader,
  ) {}

  // ---- publishing: called after commit, never throws, never waits on the network ----

  /** Everything one transaction committed (withTransaction's after-commit hook). */
  committed(list: CommittedChanges[]): void {
    for (const c of list) {
      this.changed(c.orgId, c.version, c.storeIds);
      const byStore = new Map<string, string[]>();
      for (const s of c.stock) byStore.set(s.storeId, [...(byStore.get(s.storeId) ?? []), s.productId]);
      for (const [storeId, ids] of byStore) this.stockChanged(c.orgId, storeId, ids);
    }
  }

  /** The organisation is at `version`; `storeIds` are the stores whose tills can see the change (`null`: all). */
  changed(orgId: string, version: number, storeIds: Iterable<string | null>): void {
    let s = [...new Set(storeIds)];
    if (s.length > MAX_STORES_PER_EVENT || s.includes(null)) s = [null];
    this.queue({ k: 'c', o: orgId, v: version, s });
  }

  /** Stock of `productIds` moved in `storeId`: its tills get `stock` with the committed level. */
  stockChanged(orgId: string, storeId: string, productIds: string | string[]): void {
    const ids = [...new Set(typeof productIds === 'string' ? [productIds] : productIds)];
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_EVENT)
      this.queue({ k: 's', o: orgId, s: storeId, p: ids.slice(i, i + MAX_IDS_PER_EVENT) });
  }

  /** A notification for `storeId` was committed. Sent whole when it fits a NOTIFY; else receivers read it. */
  notification(orgId: string, storeId: string, notification: Notification): void {
    const whole: Event = { k: 'n', o: orgId, s: storeId, id: notification.id, n: notification };
    this.queue(
      Buffer.byteLength(JSON.stringify(whole)) < MAX_PUBLISH_BYTES - 2 ? whole : { k: 'n', o: orgId, s: storeId, id: notification.id },
    );
  }

  /** A payment request changed state: sent whole (a few ids and the provider's words, cut to fit). */
  payment(orgId: string, storeId: string, state: PaymentRequestState): void {
    this.queue({ k: 'p', o: orgId, s: storeId, p: { ...state, detail: state.detail?.slice(0, 500) ?? null } });
  }

  private readonly revokedListeners: Array<(target: RevokedTarget) => void> = [];
  /** Called for every revocation, committed here or on another instance. */
  onRevoked(fn: (target: RevokedTarget) => void): void {
    this.revokedListeners.push(fn);
  }

  /** A session ended (logout, refresh-token reuse, password reset, deactivation): its sockets close with 4003. */
  revoked(target: RevokedTarget): void {
    for (const fn of this.revokedListeners) fn(target);
    this.queue(
      'sid' in target ? { k: 'r', sid: target.sid } : { k: 'r', u: target.userId, ...(target.exceptSid ? { x: target.exceptSid } : {}) },
    );
  }

  private readonly userChangedListeners: Array<(userId: string) => void> = [];
  /** Called for every change to a user's role, permissions, activity or password, here or on another instance. */
  onUserChanged(fn: (userId: string) => void): void {
    this.userChangedListeners.push(fn);
  }

  /** A user's role, permissions, activity or password changed: every instance reads them afresh (sockets stay open). */
  userChanged(userId: string): void {
    for (const fn of this.userChangedListeners) fn(userId);
    this.queue({ k: 'u', u: userId });
  }

  private queue(event: Event) {
    this.outgoing.push(event);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  /** Pack the queued events into JSON arrays that each fit one NOTIFY. */
  private async flush() {
    const events = this.outgoing;
    this.outgoing = [];
    this.flushing = false;
    const payloads: string[] = [];
    let parts: string[] = [];
    let size = 2;
    for (const e of events) {
      const text = JSON.stringify(e);
      const bytes = Buffer.byteLength(text) + 1;
      if (size + bytes > MAX_PUBLISH_BYTES && parts.length) {
        payloads.push(`[${parts.join(',')}]`);
        parts = [];
        size = 2;
      }
      parts.push(text);
      size += bytes;
    }
    if (parts.length) payloads.push(`[${parts.join(',')}]`);
    for (const payload of payloads) {
      try {
        await this.bus.publish(REALTIME_CHANNEL, payload);
      } catch (err) {
        // Tills catch up at their next pull or reconnection; the data itself is committed.
        this.log.warn({ err }, 'realtime publish failed');
      }
    }
  }

  // ---- receiving: this instance's websocket peers ----

  /** Listen on the fan-out channel (once; resolves when listening). */
  start(): Promise<void> {
    this.subscription ??= this.bus.subscribe(REALTIME_CHANNEL, (payload) => this.receive(payload), {
      onReconnect: () => void this.catchUp(),
    });
    return this.subscription.then(() => undefined);
  }

  async stop(): Promise<void> {
    const sub = this.subscription;
    this.subscription = null;
    if (sub) await (await sub.catch(() => null))?.();
  }

  /** Websockets open on this instance (GET /metrics). */
  get openSockets(): number {
    let n = 0;
    for (const set of this.peers.values()) n += set.size;
    return n;
  }

  add(peer: Peer): void {
    let set = this.peers.get(peer.orgId);
    if (!set) this.peers.set(peer.orgId, (set = new Set()));
    set.add(peer);
  }

  remove(peer: Peer): void {
    const set = this.peers.get(peer.orgId);
    if (!set) return;
    set.delete(peer);
    if (!set.size) this.peers.delete(peer.orgId);
  }

  /** The organisation's current version (what `hello` carries). */
  async versionOf(orgId: string): Promise<number> {
    const row = await this.db.selectFrom('organisations').select('version').where('id', '=', orgId).executeTakeFirst();
    return row?.version ?? 0;
  }

  /** Whether the session `sid` of `userId` is still signed in (some refresh token of its family not revoked). */
  sessionActive(sid: string): Promise<boolean> {
    return sessionActive(this.db, sid);
  }

  private receive(payload: string) {
    let events: Event[];
    try {
      events = JSON.parse(payload) as Event[];
      if (!Array.isArray(events)) return;
    } catch {
      return;
    }
    for (const e of events) {
      try {
        this.deliver(e);
      } catch (err) {
        this.log.warn({ err }, 'realtime delivery failed');
      }
    }
  }

  private deliver(e: Event) {
    if (e.k === 'r') {
      const target: RevokedTarget = e.sid ? { sid: e.sid } : { userId: e.u!, ...(e.x ? { exceptSid: e.x } : {}) };
      for (const fn of this.revokedListeners) fn(target);
      for (const set of this.peers.values()) {
        for (const p of set) if ((e.sid && p.sid === e.sid) || (e.u && p.userId === e.u && p.sid !== e.x)) p.revoke();
      }
      return;
    }
    if (e.k === 'u') {
      for (const fn of this.userChangedListeners) fn(e.u);
      return;
    }
    const set = this.peers.get(e.o);
    if (!set) return;
    if (e.k === 'c') {
      const all = e.s.includes(null);
      for (const p of set) if (all || (p.storeId !== null && e.s.includes(p.storeId))) p.poke(e.v);
    } else if (e.k === 's') {
      if (![...set].some((p) => p.storeId === e.s)) return;
      const key = `${e.o}/${e.s}`;
      const wanted = this.stockWanted.get(key) ?? { orgId: e.o, storeId: e.s, ids: new Set<string>() };
      for (const id of e.p) wanted.ids.add(id);
      this.stockWanted.set(key, wanted);
      void this.readStock();
    } else if (e.k === 'p') {
      this.toStore(e.o, e.s, { type: 'payment', payment: e.p });
    } else if (e.k === 'n') {
      if (e.n) this.toStore(e.o, e.s, { type: 'notification', notification: e.n });
      else void this.readNotification(e.o, e.s, e.id);
    }
  }

  private toStore(orgId: string, storeId: string, message: ServerMessage) {
    let text: string | undefined;
    for (const p of this.peers.get(orgId) ?? []) if (p.storeId === storeId) p.sendText((text ??= JSON.stringify(message)));
  }

  /** Levels of one store's read: one `stocks` frame to tills that take it, a `stock` frame each to the others; each serialised once. */
  private stockToStore(orgId: string, storeId: string, items: Array<{ product_id: string; stock: number }>) {
    if (!items.length) return;
    let one: string | undefined;
    let each: string[] | undefined;
    for (const p of this.peers.get(orgId) ?? []) {
      if (p.storeId !== storeId) continue;
      if (p.stocks) p.sendText((one ??= JSON.stringify({ type: 'stocks', items } satisfies ServerMessage)));
      else
        for (const text of (each ??= items.map((i) => JSON.stringify({ type: 'stock', ...i } satisfies ServerMessage)))) p.sendText(text);
    }
  }

  /**
   * Read the levels asked for and send them. One read at a time, each started after the events it
   * answers arrived, so a till never receives an older level after a newer one.
   */
  private async readStock() {
    if (this.stockReading) return;
    this.stockReading = true;
    try {
      while (this.stockWanted.size) {
        const batch = [...this.stockWanted.values()];
        this.stockWanted.clear();
        for (const { orgId, storeId, ids } of batch) {
          const list = [...ids];
          for (let i = 0; i < list.length; i += 500) {
            try {
              const rows = await this.db
                .selectFrom('product_stock')
                .select(['product_id', 'qty'])
                .where('org_id', '=', orgId)
                .where('store_id', '=', storeId)
                .where('product_id', 'in', list.slice(i, i + 500))
                .execute();
              this.stockToStore(
                orgId,
                storeId,
                rows.map((r) => ({ product_id: r.product_id, stock: Number(r.qty) })),
              );
            } catch (err) {
              this.log.warn({ err }, 'realtime stock read failed');
            }
          }
        }
      }
    } finally {
      this.stockReading = false;
    }
  }

  private async readNotification(orgId: string, storeId: string, id: string) {
    try {
      const notification = await this.loadNotification(orgId, storeId, id);
      if (notification) this.toStore(orgId, storeId, { type: 'notification', notification });
    } catch (err) {
      this.log.warn({ err }, 'realtime notification read failed');
    }
  }

  /** The listening connection came back: what was published meanwhile is lost, so poke everyone to pull. */
  private async catchUp() {
    for (const [orgId, set] of this.peers) {
      try {
        const version = await this.versionOf(orgId);
        for (const p of set) p.poke(version);
      } catch (err) {
        this.log.warn({ err }, 'realtime catch-up failed');
      }
    }
  }
}
