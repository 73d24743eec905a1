/** Reviews of the service, left from a store; the public list shows no user or organisation detail. */
import type { CreateReviewInput, PublicReviewList, PublicReviewsQuery, StoreReview } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { findStore } from '../../tenancy/tenancy.exports.js';
import { countPublished, insertReview, publishedReviews, toPublicReview, toStoreReview } from '../reviews.queries.js';
import { requireStore } from '../../../lib/auth/authorize.js';

export async function createReview(ctx: AuthedContext, input: CreateReviewInput): Promise<StoreReview> {
  const { orgId, storeId } = requireStore(ctx);
  const store = await findStore(ctx.db, orgId, storeId);
  if (!store) throw new NotFoundError('store');
  return withTransaction(ctx, async (tx) => {
    const row = await insertReview(
      tx.db,
      {
        org_id: orgId,
        store_id: storeId,
        user_id: ctx.actor.userId,
        rating: input.rating,
        title: input.title ?? '',
        body: input.body ?? '',
        trigger: input.trigger ?? 'manual',
      },
      tx.clock.now(),
    );
    await recordAudit(tx, { action: 'review.create', description: `Left a ${row.rating}-star review`, entity: 'review', entityId: row.id });
    return toStoreReview({ ...row, store_name: store.name });
  });
}

export async function listPublicReviews(ctx: ServiceContext, q: PublicReviewsQuery): Promise<PublicReviewList> {
  const [rows, count] = await Promise.all([publishedReviews(ctx.db, q.limit), countPublished(ctx.db)]);
  return { items: rows.map(toPublicReview), count };
}
