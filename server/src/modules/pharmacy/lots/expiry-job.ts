/**
 * The daily expiry job (issue 14). At each organisation's midnight (its time zone), its sellable
 * batches whose expiry date has come become `expired` through the batch ledger (stock falls by
 * their units; one notice per store lists the lots), and each sellable batch with units that has
 * entered its alert window gets one notice, remembered in `batches.expiry_alerted_at`.
 *
 * When: every server instance calls `runExpiryJob` from its maintenance timer (30 s). The job
 * remembers, in memory, the local day it last swept each organisation and sweeps it again once
 * that day has changed; a fresh process sweeps everything at its first tick, so a server that was
 * off for days expires all that came due meanwhile at once. In memory, not in a column: the claims
 * below make a repeated sweep harmless, so a restart costs one read per organisation. A lot that is
 * received already inside its window, or whose window is widened, alerts at the next sweep.
 *
 * Twice never happens, whatever the number of instances or restarts, because every effect is
 * claimed on the batch row itself: an expiry re-reads the batch after taking its product's stock
 * lock and moves it only if it is still sellable and due (a second instance waits on the lock, then
 * finds it expired); an alert is a conditional UPDATE of `expiry_alerted_at` from null, and the
 * notice is written only by the instance whose UPDATE changed the row, in the same transaction.
 * Quarantine rows are never touched: they are not stock, and past expiry they can only be disposed
 * of (a release is refused by `checkBatchTransition`).
 */
import { batchExpired, daysToExpiry, ExpiryAlertDays, expiryAlertDue } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import type { Lease } from '../../../lib/leases.js';
import { addDays, localDate } from '../../../lib/time.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { type BatchOrganisation, batchOrganisations, claimExpiryAlert, type DueBatch, dueBatches } from './expiry.queries.js';
import { lockStock, moveBatch } from './batch-ledger.js';
import { type ExpiredLot, expiredNotice, expiryAlertNotice } from './expiry-notices.js';

/** The longest alert window a product or organisation can have: the horizon of the due read. */
const LONGEST_WINDOW = ExpiryAlertDays.maxValue!;
/** Batches re-read per statement inside a store's transaction (parameter limits). */
const CHUNK = 500;

/** What one process remembers between ticks: the local day each organisation was last swept. */
export interface ExpiryJobState {
  swept: Map<string, string>;
  running: boolean;
}

export const expiryJobState = (): ExpiryJobState => ({ swept: new Map(), running: false });

export interface ExpirySweep {
  /** Batches this call moved to `expired`, and the units they held. */
  expired: number;
  units: number;
  /** Alert notices this call sent. */
  alerted: number;
  /** Expiry notices this call sent (one per store with expired units). */
  expiredNotices: number;
}

const none = (): ExpirySweep => ({ expired: 0, units: 0, alerted: 0, expiredNotices: 0 });
const add = (a: ExpirySweep, b: ExpirySweep): ExpirySweep => ({
  expired: a.expired + b.expired,
  units: a.units + b.units,
  alerted: a.alerted + b.alerted,
  expiredNotices: a.expiredNotices + b.expiredNotices,
});

/**
 * Sweep every organisation holding batches whose local day changed since this process last swept
 * it; returns what this call did. An organisation that fails is logged and retried at the next tick
 * (the sweep is idempotent). A tick that finds the previous one still running does nothing.
 */
export async function runExpiryJob(deps: Deps, state: ExpiryJobState, lease?: Lease): Promise<ExpirySweep> {
  if (state.running) return none();
  state.running = true;
  try {
    const ctx: ServiceContext = { ...deps, actor: null, requestId: 'expiry-job' };
    const now = deps.clock.now();
    let total = none();
    for (const org of await batchOrganisations(deps.db)) {
      const today = localDate(now, org.timezone);
      if (state.swept.get(org.id) === today) continue;
      try {
        total = add(total, await sweepOrganisation(ctx, org, today, lease));
        state.swept.set(org.id, today);
      } catch (err) {
        deps.log.warn({ err, org_id: org.id }, 'expiry job failed for an organisation; retried at the next tick');
      }
    }
    return total;
  } finally {
    state.running = false;
  }
}

/**
 * Expire and alert what is due in one organisation on its local day `today`, store by store, one
 * transaction per store. Safe to run again or on several instances at once (see the header).
 */
export async function sweepOrganisation(ctx: ServiceContext, org: BatchOrganisation, today: string, lease?: Lease): Promise<ExpirySweep> {
  const due = await dueBatches(ctx.db, org.id, today, addDays(today, LONGEST_WINDOW));
  const byStore = new Map<string, DueBatch[]>();
  for (const b of due) {
    const list = byStore.get(b.store_id);
    if (list) list.push(b);
    else byStore.set(b.store_id, [b]);
  }
  let total = none();
  for (const [storeId, batches] of byStore) {
    const expiring = batches.filter((b) => batchExpired(b.expiry_date, today));
    const alerts = batches.filter(
      (b) =>
        Number(b.qty_on_hand) > 0 &&
        expiryAlertDue({ expiry_date: b.expiry_date, alert_days: b.product_alert_days ?? org.expiry_alert_days, today }),
    );
    if (!expiring.length && !alerts.length) continue;
    const done = await withTransaction(ctx, async (tx) => {
      await lease?.fence(tx.db);
      // Every stock lock first, in product-id order like every stock writer, so a sale that holds
      // one of these products and waits for another cannot deadlock with the job.
      for (const productId of [...new Set([...expiring, ...alerts].map((b) => b.product_id))].sort((a, b) => a.localeCompare(b)))
        await lockStock(tx, org.id, storeId, productId);
      const expired = await expireStore(tx, org.id, storeId, expiring, today);
      return { ...expired, alerted: await alertStore(tx, org.id, storeId, alerts, today) };
    });
    total = add(total, done);
  }
  return total;
}

/** Move the store's due batches to `expired` (their products' stock locks held). */
async function expireStore(
  tx: ServiceContext,
  orgId: string,
  storeId: string,
  candidates: DueBatch[],
  today: string,
): Promise<ExpirySweep> {
  const out = none();
  if (!candidates.length) return out;
  const names = new Map(candidates.map((b) => [b.product_id, b.product_name]));
  // Read again under the locks: another instance may have expired them, or a correction moved a date.
  const ids = candidates.map((b) => b.id);
  const current: BatchRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    current.push(
      ...(await tx.db
        .selectFrom('batches')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .where('status', '=', 'sellable')
        .execute()),
    );
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  current.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const listed: ExpiredLot[] = [];
  for (const batch of current) {
    if (!batchExpired(batch.expiry_date, today)) continue;
    const productName = names.get(batch.product_id)!;
    await moveBatch(
      tx,
      batch,
      { kind: 'expired', qty: 0, status: 'expired', note: `expiry date ${batch.expiry_date} reached` },
      { productName },
    );
    const units = Number(batch.qty_on_hand);
    out.expired++;
    out.units += units;
    // An empty lot is marked expired too (its status must not say sellable) but is not news.
    if (units > 0) listed.push({ productName, lotNumber: batch.lot_number, units });
  }
  if (listed.length) {
    await createNotification(tx, { orgId, storeId, ...expiredNotice(listed) });
    out.expiredNotices = 1;
  }
  return out;
}

/**
 * Claim each batch's alert (`expiry_alerted_at` from null) and send its notice; returns how many
 * were sent. Only this bookkeeping column changes: no units or status, so no ledger line, and tills
 * do not hold the column (the notice reaches them).
 */
async function alertStore(tx: ServiceContext, orgId: string, storeId: string, candidates: DueBatch[], today: string): Promise<number> {
  const now = tx.clock.now();
  let sent = 0;
  for (const b of candidates) {
    const claimed = await claimExpiryAlert(tx.db, b, now);
    if (!claimed) continue;
    await createNotification(tx, {
      orgId,
      storeId,
      ...expiryAlertNotice({
        batchId: b.id,
        productName: b.product_name,
        lotNumber: claimed.lot_number,
        expiryDate: b.expiry_date,
        qty: Number(claimed.qty_on_hand),
        daysLeft: daysToExpiry(b.expiry_date, today),
      }),
    });
    sent++;
  }
  return sent;
}
