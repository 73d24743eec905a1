/**
 * The ADDO-permitted list on an ADDO till. The list is platform data, outside the organisation's
 * change log, so it never arrives as pulled changes: every pull page answers the list's version,
 * and when that differs from the version the till's copy came with, the till fetches the whole list
 * page by page and replaces its copy in one local transaction. The copy keeps the smallest version
 * its pages carried: each page's version is read before its rows, so a change made mid-fetch
 * leaves the copy marked older than the server and the next sync fetches it again.
 *
 * Only a till whose store is an ADDO fetches it (the rule applies nowhere else); a store that
 * becomes one is fetched for at the sync that brings its new outlet type.
 */
import { addoMatchKey, type AddoMedicine } from '@duka/shared';
import { getMeta, setMeta } from '../local/meta.js';
import * as reads from '../reads.js';
import type { SyncCtx } from '../sync/context.js';

/** The list route's largest page. */
const PAGE_SIZE = 100;
const CHUNK = 300;

/** Fetch the list when the till's store is an ADDO and its copy is not `serverVersion`; true when it was replaced. */
export async function refreshAddoList(ctx: SyncCtx, serverVersion: number): Promise<boolean> {
  if ((await reads.store(ctx.db))?.outlet_type !== 'addo') return false;
  if ((await getMeta(ctx.db, 'addo_list_version')) === serverVersion) return false;
  const entries = new Map<string, AddoMedicine>();
  let version = Number.POSITIVE_INFINITY;
  for (let page = 1, pages = 1; page <= pages; page++) {
    const got = await ctx.auth.authed(({ api }, token, signal) => api.addoList(token, { page, page_size: PAGE_SIZE }, signal));
    // By id: an entry that moved to a later page between two reads is kept once.
    for (const m of got.items) entries.set(m.id, m);
    version = Math.min(version, got.version);
    pages = got.total_pages;
  }
  const rows = [...entries.values()].map((m) => ({ id: m.id, match_key: addoMatchKey(m), data: JSON.stringify(m) }));
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('addo_list').execute();
    for (let i = 0; i < rows.length; i += CHUNK)
      await trx
        .insertInto('addo_list')
        .values(rows.slice(i, i + CHUNK))
        .execute();
    await setMeta(trx, 'addo_list_version', version);
  });
  return true;
}
