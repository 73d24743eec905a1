import { CreateReviewInput, Envelope, PublicReviewList, PublicReviewsQuery, StoreReview } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Reviews'];

export const listPublic = defineRoute('public', {
  method: 'get',
  path: '/reviews/public',
  tags,
  summary: 'Published reviews, newest first, with the store name only',
  request: { query: PublicReviewsQuery },
  responses: { 200: jsonResponse(Envelope(PublicReviewList), 'Reviews') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/reviews',
  tags,
  summary: 'Review the service from your active store (rating 1 to 5)',
  request: { body: jsonBody(CreateReviewInput) },
  responses: { 200: jsonResponse(Envelope(StoreReview), 'The review') },
});
