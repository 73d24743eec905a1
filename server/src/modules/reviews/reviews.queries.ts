import { newId, type PublicReview, type StoreReview } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import { iso } from '../../lib/clock.js';
import type { ReviewRow } from '../../db/tables/reviews.table.js';

type ReviewWithStore = ReviewRow & { store_name: string };

/** A new review, published (the table's default) until a platform admin hides it. */
export function insertReview(
  db: Kysely<Database>,
  review: Omit<ReviewRow, 'id' | 'is_published' | 'created_at'>,
  now: number,
): Promise<ReviewRow> {
  return db
    .insertInto('reviews')
    .values({
      id: newId(),
      org_id: review.org_id,
      store_id: review.store_id,
      user_id: review.user_id,
      rating: review.rating,
      title: review.title,
      body: review.body,
      trigger: review.trigger,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Published reviews of every organisation with their store's name, newest first: the public page's. */
export function publishedReviews(db: Kysely<Database>, limit: number): Promise<ReviewWithStore[]> {
  return db
    .selectFrom('reviews')
    .innerJoin('stores', (j) => j.onRef('stores.id', '=', 'reviews.store_id').onRef('stores.org_id', '=', 'reviews.org_id'))
    .selectAll('reviews')
    .select('stores.name as store_name')
    .where('reviews.is_published', '=', 1)
    .orderBy('reviews.created_at', 'desc')
    .orderBy('reviews.id', 'desc')
    .limit(limit)
    .modifyEnd(crossOrg('public page'))
    .execute();
}

export async function countPublished(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_published', '=', 1)
    .modifyEnd(crossOrg('public page'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Only what anyone may see. */
export function toPublicReview(r: ReviewWithStore): PublicReview {
  return {
    id: r.id,
    rating: Number(r.rating),
    title: r.title,
    body: r.body,
    trigger: r.trigger,
    store_name: r.store_name,
    created_at: iso(Number(r.created_at)),
  };
}

export const toStoreReview = (r: ReviewWithStore): StoreReview => ({ ...toPublicReview(r), store_id: r.store_id });
