/**
 * The fiscal queue: after a sale commits, its store's receipts go to TRA one at a time in counter
 * order, each only after the one before it was acknowledged (TRA rule 26). A receipt's signed XML
 * is built once, before its first try, and every retry sends exactly those bytes, so a reply lost
 * on the way back is answered by a resend TRA recognises (rule 23). Failures never touch the sale:
 * the receipt stays pending (no answer) or failed (TRA refused it) and is tried again with
 * backoff. One worker per store at a time, across server instances: the device row is claimed
 * with a conditional update first, and the claim is renewed every few seconds while the worker
 * drains, so a claim left by a process that died mid-send is taken over within a minute.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import type { FiscalDeviceRow, FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import { claimDevice, deviceScope, findDevice, renewClaim, type StoreScope, waitingReceipts } from '../fiscal.queries.js';
import type { TraGateway } from '../tra/tra-gateway.js';
import { endpointOf } from './device-session.js';
import { sendQueued } from './post.js';
import type { FiscalQueuePort } from './fiscal-port.js';
import { buildPendingBodies, markIssued } from './receipts.js';
import { dateOfZnum, sendDueZReports } from './z-reports.js';

/** A claim not renewed for this long was cut short (the process died mid-send): another worker may take over. */
const CLAIM_TIMEOUT_MS = 60_000;
/** How often a draining worker renews its claim (wall clock: a slow TRA call must not lose it). */
const HEARTBEAT_MS = 15_000;
/** Receipts read, and their acknowledgements written, at a time. */
const SEND_BATCH = 100;

export class FiscalQueue implements FiscalQueuePort {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** By store: the day (znum) whose earlier days all have their Z report acknowledged. */
  private readonly closedBefore = new Map<string, string>();
  /**
   * The context the queue was built in, outside any request: a drain a sale kicks is the queue's
   * work, not the sale's, so it must not run (and have its statements counted) as the sale's request.
   */
  private readonly outside = AsyncLocalStorage.snapshot();

  constructor(
    private readonly deps: Deps,
    private readonly gateway: TraGateway,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  kick(orgId: string, storeId: string): Promise<void> {
    const run = this.running.get(storeId);
    if (run) {
      // Sales committed while a drain is under way: one more pass after it picks them up.
      this.again.add(storeId);
      return run;
    }
    const next = this.outside(async () => {
      try {
        do {
          this.again.delete(storeId);
          await this.drain({ orgId, storeId });
        } while (this.again.has(storeId));
      } catch (err) {
        this.deps.log.warn({ err, store_id: storeId }, 'fiscal: sending failed');
      } finally {
        this.running.delete(storeId);
      }
    });
    this.running.set(storeId, next);
    return next;
  }

  /** Until every drain started in this process has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  /** Build what is unbuilt, send what is due, in order, then the Z reports of finished days. */
  async drain(store: StoreScope): Promise<void> {
    const ctx: ServiceContext = { ...this.deps, actor: null, requestId: 'fiscal' };
    // Judged by the database's clock (lib/leases.ts): instances whose clocks disagree agree on the claim.
    const now = ctx.leases.now();
    const claim = await claimDevice(ctx.db, store, now, CLAIM_TIMEOUT_MS);
    if (!claim) return;
    const held = holdClaim(ctx, store, Number(claim.claimed_at), this.heartbeatMs);
    try {
      const device = (await findDevice(ctx.db, store))!;
      await buildPendingBodies(ctx, device);
      if (await this.sendReceipts(ctx, device)) await sendDueZReports(ctx, this.gateway, device);
    } finally {
      await held.release();
    }
  }

  /**
   * True when nothing is left to send. Receipts are read and marked issued a batch at a time (one
   * transaction for the batch's acknowledgements): a crash between TRA's answer and the mark only
   * means the receipt is resent, byte for byte, and TRA acknowledges it again.
   */
  private async sendReceipts(ctx: ServiceContext, device: FiscalDeviceRow): Promise<boolean> {
    for (;;) {
      const batch = await waitingReceipts(ctx.db, deviceScope(device), SEND_BATCH);
      if (!batch.length) {
        if (device.stuck_notified_at !== null)
          await ctx.db
            .updateTable('fiscal_devices')
            .set({ stuck_notified_at: null })
            .where('org_id', '=', device.org_id)
            .where('store_id', '=', device.store_id)
            .execute();
        return true;
      }
      const acknowledged: Array<{ receipt: FiscalReceiptRow; attempts: number }> = [];
      try {
        for (const receipt of batch) {
          if (receipt.next_attempt_at !== null && Number(receipt.next_attempt_at) > ctx.clock.now()) return false;
          // Numbered while this pass was sending: build it (and those after it), then read on from it.
          if (receipt.body === null) break;
          if (!(await this.dayBeforeClosed(ctx, device, receipt.znum))) return false;
          const sent = await this.sendOne(ctx, device, receipt, (attempts) => void acknowledged.push({ receipt, attempts }));
          if (!sent) return false;
        }
      } finally {
        await markIssued(ctx, acknowledged);
      }
      if (batch.some((r) => r.body === null)) await buildPendingBodies(ctx, device);
    }
  }

  /**
   * TRA wants a day's Z report before the next day's first receipt. A receipt of a new day was
   * numbered after every receipt of the days before it (in commit order, under the store's lock),
   * so those days are complete: their Z reports are written and sent first, and the receipt waits
   * until TRA has acknowledged them. Known-closed days are remembered, so this reads the database
   * once per store and day.
   */
  private async dayBeforeClosed(ctx: ServiceContext, device: FiscalDeviceRow, znum: string): Promise<boolean> {
    const closed = this.closedBefore.get(device.store_id);
    if (closed !== undefined && znum <= closed) return true;
    if (!(await sendDueZReports(ctx, this.gateway, device, dateOfZnum(znum)))) return false;
    this.closedBefore.set(device.store_id, znum);
    return true;
  }

  private sendOne(
    ctx: ServiceContext,
    device: FiscalDeviceRow,
    receipt: FiscalReceiptRow,
    issued: (attempts: number) => void,
  ): Promise<boolean> {
    return sendQueued(
      ctx,
      this.gateway,
      device,
      { table: 'fiscal_receipts', id: receipt.id, attempts: receipt.attempts, label: { store_id: receipt.store_id, gc: receipt.gc } },
      (token) => this.gateway.postReceipt(endpointOf(ctx, device), token, receipt.body!),
      async (attempts) => issued(attempts),
    );
  }
}

/**
 * Keep a claim on the store's device while draining: renewed every `everyMs` (wall clock) while it
 * is still this worker's, and released only if it still is, so a worker that lost it (stalled past
 * the timeout) never frees another's.
 */
function holdClaim(ctx: ServiceContext, store: StoreScope, claimedAt: number, everyMs: number): { release(): Promise<void> } {
  const { orgId, storeId } = store;
  let stamp = claimedAt;
  let beat = Promise.resolve();
  const renewing = setInterval(() => {
    beat = beat.then(async () => {
      try {
        const renewed = await renewClaim(ctx.db, store, stamp, ctx.leases.now());
        if (renewed) stamp = Number(renewed.claimed_at);
      } catch (err) {
        ctx.log.warn({ err, store_id: storeId }, 'fiscal: claim not renewed');
      }
    });
  }, everyMs);
  renewing.unref();
  return {
    async release() {
      clearInterval(renewing);
      await beat;
      await ctx.db
        .updateTable('fiscal_devices')
        .set({ claimed_at: null })
        .where('org_id', '=', orgId)
        .where('store_id', '=', storeId)
        .where('claimed_at', '=', stamp)
        .execute();
    },
  };
}
