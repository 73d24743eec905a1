import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import * as routes from './reviews.routes.js';
import { createReview, listPublicReviews } from './services/reviews.js';

export const reviewsRouter: Router = createRouter()
  .openapi(routes.listPublic, async (c) => ok(c, await listPublicReviews(serviceCtx(c), c.req.valid('query'))))
  .openapi(routes.create, async (c) =>
    ok(c, await createReview(authedCtx(c), c.req.valid('json')), { message: 'thank you for your review' }),
  );
