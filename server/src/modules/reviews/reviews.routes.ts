import { CreateReviewInput, Envelope, PublicReviewList, PublicReviewsQuery, StoreReview } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Reviews'];

export const listPublic = defineRoute('public', {
  method: 'get',
  path: '/reviews/public',
  operationId: 'listPublicReviews',
  description: 'Reviews the platform has published, for the public site.',
  tags,
  summary: 'Published reviews, newest first, with the store name only',
  request: { query: PublicReviewsQuery },
  responses: { 200: jsonResponse(Envelope(PublicReviewList), 'Reviews') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/reviews',
  operationId: 'createReview',
  description: 'Records a review of Duka from the signed-in user; it is public once an administrator publishes it.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Review the service from your active store (rating 1 to 5)',
  request: {
    body: jsonBody(CreateReviewInput, {
      rating: 5,
      title: 'Inafanya kazi hata bila mtandao',
      body: 'The till kept selling through a power cut.',
      trigger: 'manual',
    }),
  },
  responses: { 200: jsonResponse(Envelope(StoreReview), 'The review') },
});
