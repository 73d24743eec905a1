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

/** Pages come and not yet staged before the next is asked for as soon as it is heard of: their bytes wait in memory (some 4 MB each). */
const PAGES_WAITING = 3;

async function download(ctx: SyncCtx): Promise<Snapshot> {
  // A download cut short on this connection (an error, a swap put off) leaves its stage: start clean.
  // `bootstrap_rows` is where tills before issue 53 staged; a till updated mid-download empties it.
  await ctx.db.deleteFrom('bootstrap_rows').execute();
  await dropStage(ctx.db);
  const stage = new Stage();
  const protocol: { heard?: number } = {};
  /** Pages asked for, by token, until the loop below takes them. */
  const asked = new Map<string | null, Asked>();
  let waiting = 0;
  const ask = (token: string | null): Asked => {
    let f = asked.get(token);
    if (!f) asked.set(token, (f = fetchPage(token)));
    return f;
  };
  /** A page's answer, and `sent`: settled once its request is on the wire (its sign-in read from the replica) or failed. */
  const fetchPage = (token: string | null): Asked => {
    // Levels come inside the product rows (mapRun stages them): no page of `stock` rows repeating them.
    const query = { limit: ctx.bootstrapPageSize, page_token: token ?? undefined, levels: 'products' as const };
    let sending!: () => void;
    const onWire = new Promise<void>((resolve) => (sending = resolve));
    const answer = ctx.auth.authed(async ({ connector }, bearer, signal) => {
      sending();
      let told: string | undefined;
      const got: Fetched =
        ctx.stagePage && connector.bootstrapBytes
          ? { bytes: await connector.bootstrapBytes(bearer, query, signal, (t) => (told = t)), next: told }
          : { page: await connector.bootstrap(bearer, query, signal) };
      await heardProtocol(ctx.db, connector, protocol);
      // Told beside the bytes (NEXT_PAGE_HEADER): the next page is asked for now, while the worker
      // still stages earlier ones, unless enough already wait for it.
      if (++waiting < PAGES_WAITING && 'bytes' in got && got.next) ask(got.next);
      return got;
    });
    // A page staged in vain (a failure below) leaves its successor's answer to no one.
    const settled = answer.then(
      () => undefined,
      () => undefined,
    );
    return { answer, sent: Promise.race([onWire, settled]) };
  };
  let next: Promise<Fetched> | null = ask(null).answer;
  asked.delete(null);
  let done = 0;
  let cursor = '';
  while (next) {
    const got: Fetched = await next;
    // The server reads the next page while this one is staged: the download is the server's time
    // alone, not the server's and the till's one after the other. Asked for once.
    let onwardSent: Promise<void> | undefined;
    const onward = (token: string | null): Promise<void> => {
      if (!onwardSent) {
        const f = token ? ask(token) : null;
        asked.delete(token);
        next = f?.answer ?? null;
        onwardSent = f?.sent ?? Promise.resolve();
      }
      return onwardSent;
    };
    if ('bytes' in got && got.next) void onward(got.next);
    const page = 'page' in got ? await stageHere(ctx, got.page, stage, onward) : await stageInWorker(ctx, got.bytes, stage, onward);
    waiting--;
    done += page.rows;
    cursor = page.cursor;
    ctx.events.emit('progress', { phase: 'bootstrap', done, total: page.total });
  }
  return { cursor, rows: done, stage };
}

type Asked = { answer: Promise<Fetched>; sent: Promise<void> };

/** A page as the connector answered it: decoded here, or its bytes for the storage to decode. */
type Fetched = { page: BootstrapResponse } | { bytes: ArrayBuffer; next?: string };

/** A decoded page's rows mapped here and staged through Kysely (Node, or any storage that stages nothing itself). */
async function stageHere(ctx: SyncCtx, page: BootstrapResponse, stage: Stage, onward: (token: string | null) => Promise<void>) {
  onward(page.page_token);
  await ctx.db.transaction().execute((trx) => stageUpserts(trx, page.rows, stage));
  return { rows: page.rows.length, cursor: page.cursor, total: page.total };
}

/**
 * A page's bytes decoded, mapped and staged by the storage (a browser's worker, `stage-page.ts`),
 * between the till's transactions. The next page is asked for once this one's token is heard (beside
 * its bytes, or from the worker's decoding), and this page's rows go in once that request is on the
 * wire: a sign-in that reads the replica (its token not held) would otherwise wait behind the inserts.
 */
async function stageInWorker(ctx: SyncCtx, bytes: ArrayBuffer, stage: Stage, onward: (token: string | null) => Promise<void>) {
  const staged = await ctx.stagePage!(bytes, (head) => onward(head.page_token));
  await onward(staged.page_token);
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
