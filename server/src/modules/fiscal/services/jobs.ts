/**
 * runFiscalJobs(deps), on the server's 30 s timer: every registered device with work has its queue drained
 * (what is due is resent, finished days get their Z report; a device switched off still sends what
 * it numbered), and a store whose receipts or Z reports have waited more than an hour is told
 * once, until its queue empties again.
 */
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { addDays } from '../../../lib/time.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { devicesWithWork, firstWaitingReceipt, firstWaitingZReport, ISSUED, type StoreScope } from '../fiscal.queries.js';
import { openDay } from './z-reports.js';

export const STUCK_AFTER_MS = 60 * 60_000;

export async function runFiscalJobs(deps: Deps): Promise<void> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'fiscal-job' };
  const today = openDay(ctx.clock.now());
  // Only the devices with something to send: at thousands of stores, an idle one costs a few index probes.
  const devices = await devicesWithWork(ctx.db, today, addDays(today, -1));
  for (const d of devices) {
    await ctx.fiscal.kick(d.org_id, d.store_id);
    if (d.stuck_notified_at === null) await tellIfStuck(ctx, { orgId: d.org_id, storeId: d.store_id });
  }
}

/**
 * At the start of a server on embedded SQLite, the only server of its database: a claim on a
 * fiscal device can only be a dead process's (killed mid-send), so it is released at once rather
 * than after its minute. With Postgres, other instances may hold live claims: they expire instead.
 * Every shop's devices at once.
 */
export async function releaseDeadClaims(deps: Deps): Promise<void> {
  await deps.db
    .updateTable('fiscal_devices')
    .set({ claimed_at: null })
    .where('claimed_at', 'is not', null)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

async function tellIfStuck(ctx: ServiceContext, store: StoreScope): Promise<void> {
  const { orgId, storeId } = store;
  const since = ctx.clock.now() - STUCK_AFTER_MS;
  const [receipt, z] = await Promise.all([
    firstWaitingReceipt(ctx.db, store, ['created_at', 'last_error']),
    firstWaitingZReport(ctx.db, store),
  ]);
  const waiting = [receipt, z].filter((w) => w && Number(w.created_at) < since);
  if (!waiting.length) return;
  const pending = await ctx.db
    .selectFrom('fiscal_receipts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .where('status', '!=', ISSUED)
    .executeTakeFirstOrThrow();
  const reason = waiting[0]!.last_error ?? 'no answer yet';
  await withTransaction(ctx, async (tx) => {
    // The claim: of several instances, only the one whose update matched tells the store.
    const claimed = await tx.db
      .updateTable('fiscal_devices')
      .set({ stuck_notified_at: tx.clock.now() })
      .where('org_id', '=', orgId)
      .where('store_id', '=', storeId)
      .where('stuck_notified_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    await createNotification(tx, {
      orgId,
      storeId,
      category: 'system',
      title: 'Fiscal receipts are not reaching TRA / Risiti za EFD hazifiki TRA',
      body: `${Number(pending.n)} receipt(s) have waited more than an hour for TRA. Last reason: ${reason}. Selling goes on; they are sent in order as soon as TRA answers.`,
    });
  });
}
