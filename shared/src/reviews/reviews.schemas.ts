/** Reviews a shop leaves about the service, and the public list shown on the website. */
import { z } from 'zod';
import { Timestamp } from '../common.js';

export const ReviewTrigger = z.enum(['post_sale', 'manual', 'prompted']).meta({ id: 'ReviewTrigger' });
export type ReviewTrigger = z.infer<typeof ReviewTrigger>;

export const CreateReviewInput = z
  .object({
    rating: z.int().min(1).max(5),
    title: z.string().trim().max(150).default(''),
    body: z.string().trim().max(2000).default(''),
    trigger: ReviewTrigger.default('manual'),
  })
  .meta({ id: 'CreateReviewInput' });
export type CreateReviewInput = z.input<typeof CreateReviewInput>;

/** What anyone may see of a review: nothing about the user or the organisation beyond the store's name. */
export const PublicReview = z
  .object({
    id: z.uuid(),
    rating: z.int(),
    title: z.string(),
    body: z.string(),
    trigger: ReviewTrigger,
    store_name: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'PublicReview' });
export type PublicReview = z.infer<typeof PublicReview>;

export const StoreReview = PublicReview.extend({ store_id: z.uuid() }).meta({ id: 'StoreReview' });
export type StoreReview = z.infer<typeof StoreReview>;

export const PublicReviewsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100))
    .meta({ description: 'Default 20; above 100 is clamped to 100' }),
});
export type PublicReviewsQuery = z.infer<typeof PublicReviewsQuery>;

export const PublicReviewList = z
  .object({
    items: z.array(PublicReview).meta({ description: 'Newest first' }),
    count: z.int().meta({ description: 'All published reviews, however many `items` shows' }),
  })
  .meta({ id: 'PublicReviewList' });
export type PublicReviewList = z.infer<typeof PublicReviewList>;
