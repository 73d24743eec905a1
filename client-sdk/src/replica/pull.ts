/**
 * Incremental pull: pages of changes after the cursor, each applied with the new cursor in one
 * local transaction. A page is applied only while nothing waits in the queue (PowerSync's rule):
 * the server's rows never overwrite a local change it has not seen yet. A sale made during the
 * pull stops it; the engine pushes and pulls again.
 */
import type { PullResponse } from '@duka/shared';
import { DukaApiError } from '../http/errors.js';
import { getMeta, setMeta } from '../local/meta.js';
import { pendingCount } from '../queue.js';
import type { SyncCtx } from '../sync/context.js';
import { heardProtocol } from '../sync/protocol.js';
import { applyChanges } from './apply.js';

/** How the pull ended, and the ADDO list version the last page answered (none when no page came). */
export type PullOutcome = { kind: 'done' | 'blocked' | 'reset'; applied: number; addoListVersion?: number };

export async function pullChanges(ctx: SyncCtx): Promise<PullOutcome> {
  let applied = 0;
  for (;;) {
    const cursor = await getMeta(ctx.db, 'cursor');
    if (!cursor) return { kind: 'reset', applied };
    let page: PullResponse;
    const sentAt = ctx.now();
    try {
      page = await ctx.auth.authed(async ({ connector }, token, signal) => {
        const answer = await connector.pull(token, { cursor, limit: ctx.pullPageSize, device_id: ctx.deviceId }, signal);
        await heardProtocol(ctx.db, connector);
        return answer;
      });
      ctx.serverTime(page.server_time, sentAt);
    } catch (err) {
      // A cursor the server cannot read (another organisation's, a damaged one): start over.
      if (err instanceof DukaApiError && err.status === 400 && err.errors.some((e) => e.field === 'cursor'))
        return { kind: 'reset', applied };
      throw err;
    }
    // Absent from a server older than the field: the till then keeps the list it has.
    const addoListVersion = page.addo_list_version;
    if (page.reset_required) return { kind: 'reset', applied, addoListVersion };
    const took = await ctx.db.transaction().execute(async (trx) => {
      if ((await pendingCount(trx)) > 0 || (await getMeta(trx, 'cursor')) !== cursor) return false;
      await applyChanges(trx, page.changes);
      await setMeta(trx, 'cursor', page.cursor);
      return true;
    });
    if (!took) return { kind: 'blocked', applied, addoListVersion };
    applied += page.changes.length;
    if (!page.has_more) return { kind: 'done', applied, addoListVersion };
  }
}
