/**
 * GET /sync/bootstrap: everything a till holds, in pages. The first call notes the organisation's
 * version V before reading any row; pages then walk the kinds in a fixed order, each by id, and
 * stamp every row with V. A row written while the pages are read is either read in its newer state
 * or not at all (created behind the walk, or deleted), and in every case its change has a version
 * above V, so pulling from V's cursor afterwards delivers it: nothing is missed, though a row may
 * arrive twice.
 */
import type { BootstrapResponse, Change } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { type EntityKind, KINDS } from './entities.js';
import { scopeAt } from './scope.js';
import { decodePageToken, encodeCursor, encodePageToken, type PagePosition } from './tokens.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import { readAhead, type SerialisedPage, takeAhead } from './pages-ahead.js';

type PageQuery = { page_token?: string; limit: number; levels?: 'rows' | 'products' };

/** The kinds a walk skips: with `levels=products` the store's levels come only inside the product rows. */
const skipped = (q: PageQuery) => (kind: EntityKind) => q.levels === 'products' && kind.entity === 'stock';

/**
 * A page as answered, serialised: read ahead when the previous page was answered (pages-ahead.ts),
 * else read now; either way the next one is then read ahead. The page read ahead was read for the
 * same organisation and store (the key), from a token this server signed for them.
 */
export async function bootstrapAnswer(ctx: AuthedContext, q: PageQuery): Promise<SerialisedPage> {
  const till = requireStore(ctx);
  const keyOf = (token: string) => `${till.orgId} ${till.storeId} ${q.limit} ${q.levels ?? 'rows'} ${token}`;
  const page = (q.page_token ? await takeAhead(keyOf(q.page_token)) : undefined) ?? (await serialised(ctx, q));
  if (page.next) {
    const next = { ...q, page_token: page.next };
    readAhead(keyOf(page.next), () => serialised(ctx, next));
  }
  return page;
}

async function serialised(ctx: AuthedContext, q: PageQuery): Promise<SerialisedPage> {
  const page = await bootstrapPage(ctx, q);
  return { json: JSON.stringify(page), rows: page.rows.length, next: page.page_token };
}

export async function bootstrapPage(ctx: AuthedContext, q: PageQuery): Promise<BootstrapResponse> {
  const till = requireStore(ctx);
  const skip = skipped(q);
  const org = await ctx.db.selectFrom('organisations').select(['version', 'timezone']).where('id', '=', till.orgId).executeTakeFirst();
  if (!org) throw new NotFoundError('organisation');
  const now = ctx.clock.now();

  let pos: PagePosition;
  if (q.page_token) {
    pos = decodePageToken(ctx, q.page_token, till.orgId, KINDS.length);
    // Only a server restored from a backup issued a snapshot above the current version.
    if (pos.v > Number(org.version))
      throw new ValidationError('page_token', 'is not a valid page token; start the bootstrap again without one');
  } else {
    const scope = scopeAt({ ...till, files: ctx.config }, now, org.timezone);
    let total = 0;
    for (const kind of KINDS) if (!skip(kind)) total += await kind.count(ctx.db, scope);
    pos = { v: Number(org.version), k: 0, a: null, t: total, s: scope.since };
  }
  const scope = scopeAt({ ...till, files: ctx.config }, now, org.timezone, pos.s);

  const rows: Change[] = [];
  let next: PagePosition | null = null;
  for (let k = pos.k, after = pos.a; k < KINDS.length; k++, after = null) {
    const kind = KINDS[k]!;
    if (skip(kind)) continue;
    const room = q.limit - rows.length;
    // One more than fits tells whether the kind goes on; with no room left it only peeks.
    const got = await kind.rows(ctx.db, scope, { after, limit: room + 1 });
    const taken = got.slice(0, room);
    for (const r of taken) rows.push({ entity: kind.entity, op: 'upsert', id: r.id, version: pos.v, data: r.data });
    if (got.length > room) {
      next = { ...pos, k, a: taken.length ? taken[taken.length - 1]!.id : after };
      break;
    }
  }
  return {
    rows,
    page_token: next ? encodePageToken(ctx, till.orgId, next) : null,
    cursor: encodeCursor(till.orgId, pos.v),
    total: pos.t,
  };
}
