/**
 * Following the mobile-money pushes this till asked for (issue 38). The websocket's `payment`
 * messages say when one moves; while the socket is down the till asks the server every few seconds
 * instead, and once more whenever it reaches the server again, so a till that went offline while
 * its customer was paying learns the result on reconnect. A paid push's booked sale is written into
 * the replica's receipts at once (the pull brings the same row later: an upsert, never a second
 * sale) with its money in the cashier's open shift, in the one local transaction that lets go of
 * the push. Every change is told once, as a `payment` event.
 */
import { type PaymentRequest, type PaymentRequestState, type Transaction, toCents } from '@duka/shared';
import { shiftMovement } from '../local/shift-movements.js';
import type { AuthSession } from '../auth.js';
import type { TillApi } from '../api.js';
import type { PaymentUpdate, TillEvents, TypedEmitter } from '../events.js';
import { DukaApiError } from '../http/errors.js';
import type { LocalDb, LocalExec } from '../local/db.js';
import { getMeta, type HeldPayment, setMeta } from '../local/meta.js';
import * as reads from '../reads.js';
import { applyChange } from '../replica/apply.js';

/** A push older than this that is no longer awaiting is forgotten: nothing can come of it any more. */
const KEEP_MS = 24 * 3_600_000;

export interface PaymentWatchOptions {
  db: LocalDb;
  auth: AuthSession;
  events: TypedEmitter<TillEvents>;
  now: () => number;
  /** The websocket is open: its messages say when a push moves, so no polling. */
  live: () => boolean;
  /** How often to ask about pushes still awaiting while the socket is down (default 3 000 ms). */
  pollMs?: number;
}

/** What the server said of a push: its state, and with a whole request its amount and booked sale. */
export type PaymentNews = PaymentRequestState & Partial<Pick<PaymentRequest, 'amount' | 'sale'>>;

export async function heldPayments(db: LocalExec): Promise<Record<string, HeldPayment>> {
  return (await getMeta(db, 'payment_requests')) ?? {};
}

/** Keep (or with null, let go of) one push, inside the caller's local transaction. */
export async function putHeld(db: LocalExec, id: string, held: HeldPayment | null): Promise<void> {
  const all = await heldPayments(db);
  if (held) all[id] = held;
  else delete all[id];
  await setMeta(db, 'payment_requests', all);
}

/** A payment-request call through the session: its token refreshed as every call's. */
export function paymentCall<T>(auth: AuthSession, fn: (api: TillApi, token: string, signal: AbortSignal) => Promise<T>): Promise<T> {
  return auth.authed(({ api }, token, signal) => fn(api, token, signal));
}

const stateOf = (n: PaymentNews): PaymentRequestState => ({
  id: n.id,
  status: n.status,
  detail: n.detail,
  attempt: n.attempt,
  sale_id: n.sale_id,
});
const same = (a: PaymentRequestState | null, b: PaymentRequestState) =>
  a !== null && a.status === b.status && a.attempt === b.attempt && a.detail === b.detail && a.sale_id === b.sale_id;
/** Within one attempt a push only moves forward: awaiting, then over, or paid (a late payment of a failed push). */
const RANK: Record<PaymentRequestState['status'], number> = { awaiting_payment: 0, failed: 1, expired: 1, cancelled: 1, paid: 2 };
/**
 * A message is newer than what the till knows when it is of a later attempt, or moves the same one
 * forward. Messages can overtake the answer to the till's own request (the server publishes as it
 * commits), so one that would take the push back is an old one, and dropped.
 */
const newer = (known: PaymentRequestState | null, b: PaymentRequestState) =>
  known === null || b.attempt > known.attempt || (b.attempt === known.attempt && RANK[b.status] > RANK[known.status]);
/** Worth asking the server about: no answer yet, or still waiting for the customer. */
const open = (h: HeldPayment) => h.state === null || h.state.status === 'awaiting_payment';

export class PaymentWatch {
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly checking = new Map<string, Promise<void>>();
  /** Pushes being asked for right now: unknown to the server until its answer, so not to be asked about. */
  private readonly asking = new Set<string>();

  constructor(private readonly o: PaymentWatchOptions) {}

  /** Run the ask for a push; meanwhile no poll asks the server about it (a 404 then would only mean "not yet"). */
  async asked<T>(id: string, ask: () => Promise<T>): Promise<T> {
    this.asking.add(id);
    try {
      return await ask();
    } finally {
      this.asking.delete(id);
    }
  }

  /** Poll while the socket is down (with `autoSync`). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.o.live()) void this.resume();
    }, this.o.pollMs ?? 3_000);
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A websocket `payment` message. A paid push is read whole, for its booked sale. */
  async message(state: PaymentRequestState): Promise<void> {
    const held = (await heldPayments(this.o.db))[state.id];
    if (!held || !newer(held.state, state)) return;
    if (state.status === 'paid') return this.check(state.id);
    await this.settle(state);
  }

  /** Ask the server about every push still open on this till, and forget the old finished ones. */
  async resume(): Promise<void> {
    const held = Object.values(await heldPayments(this.o.db));
    const stale = held.filter((h) => !open(h) && this.o.now() - h.asked_at > KEEP_MS);
    if (stale.length) await this.o.db.transaction().execute(async (trx) => Promise.all(stale.map((h) => putHeld(trx, h.id, null))));
    await Promise.all(held.filter(open).map((h) => this.check(h.id)));
  }

  /** Ask the server about one push (one question per push at a time); offline, the next poll or reconnect asks again. */
  check(id: string): Promise<void> {
    if (this.asking.has(id)) return Promise.resolve();
    let running = this.checking.get(id);
    if (!running) {
      running = this.ask(id).finally(() => this.checking.delete(id));
      this.checking.set(id, running);
    }
    return running;
  }

  private async ask(id: string): Promise<void> {
    const held = (await heldPayments(this.o.db))[id];
    if (!held) return;
    let request: PaymentRequest;
    try {
      request = await paymentCall(this.o.auth, (api, token, signal) => api.getPaymentRequest(token, id, signal));
      // The cashier was told this ask failed and took the money another way: it must not be paid now.
      if (held.abandoned && request.status === 'awaiting_payment')
        request = await paymentCall(this.o.auth, (api, token, signal) => api.cancelPaymentRequest(token, id, signal));
    } catch (err) {
      // Unanswered and unknown to the server: the ask never arrived.
      if (err instanceof DukaApiError && err.status === 404 && held.state === null && !this.asking.has(id))
        await putHeld(this.o.db, id, null);
      return;
    }
    await this.settle(request);
  }

  /**
   * Record what the server said of a push this till holds and tell the app when it changed. Paid
   * (with the sale read whole): the sale goes into the receipts and the shift, and the push is let go.
   */
  async settle(news: PaymentNews): Promise<PaymentUpdate | null> {
    const state = stateOf(news);
    const update = await this.o.db.transaction().execute(async (trx): Promise<PaymentUpdate | null> => {
      const held = (await heldPayments(trx))[news.id];
      if (!held) return null;
      if (state.status === 'paid') {
        const sale = news.sale as Transaction | null | undefined;
        if (!sale) return null;
        await applyChange(trx, { entity: 'transaction', op: 'upsert', id: sale.id, data: sale });
        await shiftMovement(trx, { kind: 'sale', method: sale.payment_method, amount: toCents(sale.total), at: this.o.now() });
        await putHeld(trx, news.id, null);
        return { ...state, receipt: await reads.transactionById(trx, sale.id) };
      }
      const amount = news.amount ?? held.amount;
      if (same(held.state, state) && amount === held.amount) return null;
      await putHeld(trx, news.id, { ...held, state, amount });
      return same(held.state, state) ? null : { ...state, receipt: null };
    });
    if (update) this.o.events.emit('payment', update);
    return update;
  }
}
