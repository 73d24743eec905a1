/**
 * Bootstrap pages read ahead (issue 53). A till asks for page k+1 only once page k has come (its
 * token is in it), so server and till took turns: the server idle while the till parsed and stored
 * a page, the till idle while the server read the next. Once page k is answered, page k+1 is read
 * and serialised here, and the till's request for it takes it. A page read a moment early is as
 * good as one read on request: every row of a snapshot is read at some moment after its version V,
 * and whatever changes later has a version above V, which the pull from the final cursor delivers.
 *
 * Bounded: at most `AHEAD_MAX` pages are held or being read, server-wide, each for `AHEAD_TTL_MS`;
 * when that many are, a till gets no page ahead (never one evicted before it was asked for, which
 * would read it twice). A page is answered once: a till that asks again for a page it was answered
 * (its answer lost) gets it read anew. Another server instance behind the same balancer simply
 * reads the page itself.
 */
import { LRUCache } from 'lru-cache';

/** A page as answered: `data`'s JSON, its row count (metrics) and the next page's token. */
export interface SerialisedPage {
  json: string;
  rows: number;
  next: string | null;
}

/** About 4 MB each at the largest page (5,000 products). */
const AHEAD_MAX = 8;
const AHEAD_TTL_MS = 30_000;

const held = new LRUCache<string, Promise<SerialisedPage | undefined>>({ max: AHEAD_MAX, ttl: AHEAD_TTL_MS, ttlAutopurge: true });

/** The page read ahead for `key`, taken; undefined when none was (or its read failed: read it now). */
export async function takeAhead(key: string): Promise<SerialisedPage | undefined> {
  const page = held.get(key);
  if (!page) return undefined;
  held.delete(key);
  return page;
}

/** Read `read` for `key` now, off this request's answer, unless the pages ahead are at their bound. */
export function readAhead(key: string, read: () => Promise<SerialisedPage>): void {
  if (held.size >= AHEAD_MAX || held.has(key)) return;
  // After the current answer is on its way: the read must not delay the page it follows.
  held.set(
    key,
    new Promise<void>((resolve) => setImmediate(resolve)).then(read).catch(() => undefined),
  );
}

/** Pages held or being read now (tests). */
export const pagesAheadHeld = (): number => held.size;
