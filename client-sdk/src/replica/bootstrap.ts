/**
 * Bootstrap: the whole snapshot a till holds, page by page (with progress events: rows done of the
 * total), staged in `bootstrap_rows`, then swapped in for the replica's server rows in one local
 * transaction with the snapshot's pull cursor. The swap, like a pull page, waits for an empty
 * queue; the till's own unsynced and refused sales survive it.
 */
import type { BootstrapResponse } from '@duka/shared';
import { sql } from 'kysely';
import { DukaApiError } from '../http/errors.js';
import type { LocalTrx } from '../local/db.js';
import { setMeta } from '../local/meta.js';
import { pendingCount } from '../queue.js';
import type { SyncCtx } from '../sync/context.js';
import { heardProtocol } from '../sync/protocol.js';
import { applyChanges, clearReplica, EMPTIED_BY_BOOTSTRAP } from './apply.js';

const STAGE_CHUNK = 300;

export interface Snapshot {
  cursor: string;
  rows: number;
}

/** Download every page into the staging table; restarts once if the server refuses a page token. */
export async function downloadSnapshot(ctx: SyncCtx): Promise<Snapshot> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await download(ctx);
    } catch (err) {
      const badToken = err instanceof DukaApiError && err.status === 400 && err.errors.some((e) => e.field === 'page_token');
      if (!badToken || attempt > 0) throw err;
    }
  }
}

async function download(ctx: SyncCtx): Promise<Snapshot> {
  await ctx.db.deleteFrom('bootstrap_rows').execute();
  const fetchPage = (token: string | null): Promise<BootstrapResponse> => {
    const query = { limit: ctx.bootstrapPageSize, page_token: token ?? undefined };
    return ctx.auth.authed(async ({ connector }, bearer, signal) => {
      const answer = await connector.bootstrap(bearer, query, signal);
      await heardProtocol(ctx.db, connector);
      return answer;
    });
  };
  let next: Promise<BootstrapResponse> | null = fetchPage(null);
  let done = 0;
  let cursor = '';
  while (next) {
    const page: BootstrapResponse = await next;
    // The server reads the next page while this one is staged: the download is the server's time
    // alone, not the server's and the till's one after the other.
    next = page.page_token ? fetchPage(page.page_token) : null;
    // A page staged in vain (a failure below) leaves its successor's answer to no one.
    next?.catch(() => undefined);
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < page.rows.length; i += STAGE_CHUNK) {
        const chunk = page.rows.slice(i, i + STAGE_CHUNK).map((r) => ({ entity: r.entity, id: r.id, data: JSON.stringify(r.data) }));
        await trx.insertInto('bootstrap_rows').values(chunk).execute();
      }
    });
    done += page.rows.length;
    cursor = page.cursor;
    ctx.events.emit('progress', { phase: 'bootstrap', done, total: page.total });
  }
  return { cursor, rows: done };
}

/** Replace the replica's server rows with the staged snapshot; false while the queue is not empty. */
export async function swapSnapshot(ctx: SyncCtx, snap: Snapshot): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    if ((await pendingCount(trx)) > 0) return false;
    await clearReplica(trx);
    await withoutIndexes(trx, EMPTIED_BY_BOOTSTRAP, async () => {
      let after = 0;
      for (;;) {
        const rows = await trx.selectFrom('bootstrap_rows').selectAll().where('pos', '>', after).orderBy('pos').limit(5000).execute();
        if (!rows.length) break;
        await applyChanges(
          trx,
          rows.map((r) => ({
            entity: r.entity as never,
            op: 'upsert' as const,
            id: r.id,
            data: JSON.parse(r.data) as Record<string, unknown>,
            json: r.data,
          })),
        );
        after = rows[rows.length - 1]!.pos;
      }
    });
    await trx.deleteFrom('bootstrap_rows').execute();
    await setMeta(trx, 'cursor', snap.cursor);
    return true;
  });
}

/**
 * Fill emptied tables without their secondary indexes, then build each index once from the sorted
 * rows: 50,000 products inserted in id order would otherwise be 150,000 inserts at random places
 * of the name, SKU and barcode indexes. Each index is made again from its own `CREATE INDEX` as
 * the migrations left it, inside the caller's transaction: a failure rolls the drop back too.
 */
async function withoutIndexes(trx: LocalTrx, tables: readonly string[], fill: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master
    where type = 'index' and sql is not null and tbl_name in (${sql.join([...tables])})`.execute(trx);
  for (const ix of indexes) await sql`drop index ${sql.id(ix.name)}`.execute(trx);
  await fill();
  for (const ix of indexes) await sql.raw(ix.sql).execute(trx);
}
