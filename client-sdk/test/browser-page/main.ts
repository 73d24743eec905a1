/// <reference types="vite/client" />
/**
 * The page `browser-storage.e2e.test.ts` builds with Vite: the browser storage bundled as an app
 * bundles it, the worker imported with `?worker` from the package's `./sqlite-worker` export. The
 * test drives it through `globalThis.page`; every call answers `{ ok }` or `{ error: { code, message } }`
 * because a rejection loses its `code` on the way out of the page.
 */
import SqliteWorker from '@duka/client-sdk/sqlite-worker?worker';
import { Kysely, sql } from 'kysely';
import { openBrowserTill, opfsStorage, type Till, type WorkerLike } from '@duka/client-sdk/browser';

// The repository's types have no DOM library, so Vite's `Worker` is opaque here; with the DOM's
// types (an app's) `() => new SqliteWorker()` is a `WorkerLike` as it stands.
const worker = () => new SqliteWorker() as unknown as WorkerLike;
let till: Till | null = null;

const calls = {
  /** Open the till on its replica (no server: opening needs only the replica); answer its device id, made once and kept there. */
  async openTill() {
    till = await openBrowserTill({
      worker,
      name: 'till.db',
      baseUrl: 'http://127.0.0.1:9/api/v1',
      deviceName: 'Browser till',
      autoSync: false,
    });
    return till.deviceId;
  },
  async closeTill() {
    await till?.close();
    till = null;
    return true;
  },
  /** Open the till's database without claiming the till first (as a page that skipped `claimTill` would), and close it again. */
  async openUnclaimed() {
    const storage = await opfsStorage({ worker, name: 'till.db' });
    await storage.close();
    return true;
  },
  /** Add `n` rows to a table of a second database in one transaction; answer how many it holds and whether storage is persistent. */
  async addRows(n: number) {
    const storage = await opfsStorage({ worker, name: 'rows.db' });
    const db = new Kysely<any>({ dialect: storage.dialect });
    await sql`create table if not exists item (id integer primary key, label text not null)`.execute(db);
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < n; i++)
        await trx
          .insertInto('item')
          .values({ label: `item ${i}` })
          .execute();
    });
    const { count } = await db
      .selectFrom('item')
      .select((e) => e.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    await db.destroy();
    return { count, persisted: await storage.persisted };
  },
};

async function call(name: keyof typeof calls, ...args: unknown[]) {
  try {
    return { ok: await (calls[name] as (...a: unknown[]) => Promise<unknown>)(...args) };
  } catch (e) {
    const { name: kind, code, message } = e as { name?: string; code?: string; message?: string };
    return { error: { name: kind, code, message } };
  }
}

(globalThis as unknown as { page: { call: typeof call } }).page = { call };
