/**
 * Bootstrap: the whole snapshot a till holds, page by page (with progress events: rows done of the
 * total), staged as the replica's own rows in TEMP tables (`stage.ts`), then swapped in for the
 * replica's server rows in one local transaction with the snapshot's pull cursor. The swap, like a
 * pull page, waits for an empty queue; the till's own unsynced and refused sales survive it.
 */
import type { BootstrapResponse } from '@duka/shared';
import { sql } from 'kysely';
import { DukaApiError } from '../http/errors.js';
import type { LocalTrx } from '../local/db.js';
import { setMeta } from '../local/meta.js';
import { pendingCount } from '../queue.js';
import type { SyncCtx } from '../sync/context.js';
import { heardProtocol } from '../sync/protocol.js';
import { clearReplica, EMPTIED_BY_BOOTSTRAP, stageUpserts } from './apply.js';
import { dropStage, Stage } from './stage.js';

export interface Snapshot {
  cursor: string;
  rows: number;
  stage: Stage;
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
  // A download cut short on this connection (an error, a swap put off) leaves its stage: start clean.
  // `bootstrap_rows` is where tills before issue 53 staged; a till updated mid-download empties it.
  await ctx.db.deleteFrom('bootstrap_rows').execute();
  await dropStage(ctx.db);
  const stage = new Stage();
  const protocol: { heard?: number } = {};
  /** A page's answer, and `sent`: settled once its request is on the wire (its sign-in read from the replica) or failed. */
  const fetchPage = (token: string | null): { answer: Promise<Fetched>; sent: Promise<void> } => {
    const query = { limit: ctx.bootstrapPageSize, page_token: token ?? undefined };
    let sending!: () => void;
    const onWire = new Promise<void>((resolve) => (sending = resolve));
    const answer = ctx.auth.authed(async ({ connector }, bearer, signal) => {
      sending();
      const got: Fetched =
        ctx.stagePage && connector.bootstrapBytes
          ? { bytes: await connector.bootstrapBytes(bearer, query, signal) }
          : { page: await connector.bootstrap(bearer, query, signal) };
      await heardProtocol(ctx.db, connector, protocol);
      return got;
    });
    // A page staged in vain (a failure below) leaves its successor's answer to no one.
    const settled = answer.then(
      () => undefined,
      () => undefined,
    );
    return { answer, sent: Promise.race([onWire, settled]) };
  };
  let next: Promise<Fetched> | null = fetchPage(null).answer;
  let done = 0;
  let cursor = '';
  while (next) {
    // The server reads the next page while this one is staged: the download is the server's time
    // alone, not the server's and the till's one after the other.
    const onward = (token: string | null): Promise<void> => {
      const f = token ? fetchPage(token) : null;
      next = f?.answer ?? null;
      return f?.sent ?? Promise.resolve();
    };
    const got: Fetched = await next;
    const page = 'page' in got ? await stageHere(ctx, got.page, stage, onward) : await stageInWorker(ctx, got.bytes, stage, onward);
    done += page.rows;
    cursor = page.cursor;
    ctx.events.emit('progress', { phase: 'bootstrap', done, total: page.total });
  }
  return { cursor, rows: done, stage };
}

/** A page as the connector answered it: decoded here, or its bytes for the storage to decode. */
type Fetched = { page: BootstrapResponse } | { bytes: ArrayBuffer };

/** A decoded page's rows mapped here and staged through Kysely (Node, or any storage that stages nothing itself). */
async function stageHere(ctx: SyncCtx, page: BootstrapResponse, stage: Stage, onward: (token: string | null) => Promise<void>) {
  onward(page.page_token);
  await ctx.db.transaction().execute((trx) => stageUpserts(trx, page.rows, stage));
  return { rows: page.rows.length, cursor: page.cursor, total: page.total };
}

/**
 * A page's bytes decoded, mapped and staged by the storage (a browser's worker, `stage-page.ts`),
 * between the till's transactions. The next page is asked for once this one's token is heard, and
 * this page's rows go in once that request is on the wire: its sign-in reads the replica too, and
 * would otherwise wait behind the inserts in the worker.
 */
async function stageInWorker(ctx: SyncCtx, bytes: ArrayBuffer, stage: Stage, onward: (token: string | null) => Promise<void>) {
  let asked = false;
  const ask = (token: string | null) => {
    if (asked) return;
    asked = true;
    return onward(token);
  };
  const staged = await ctx.stagePage!(bytes, (head) => ask(head.page_token));
  await ask(staged.page_token);
  stage.record(staged.tables);
  return staged;
}

/** Replace the replica's server rows with the staged snapshot; false while the queue is not empty. */
export async function swapSnapshot(ctx: SyncCtx, snap: Snapshot): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    if ((await pendingCount(trx)) > 0) return false;
    await clearReplica(trx);
    await withoutIndexes(trx, EMPTIED_BY_BOOTSTRAP, () => snap.stage.copyInto(trx));
    await dropStage(trx);
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
