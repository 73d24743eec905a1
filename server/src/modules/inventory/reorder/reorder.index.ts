import { createRouter, type Router } from '../../../lib/create-router.js';
import { authedCtx, ok } from '../../../lib/route.js';
import { reorderSuggestions } from './reorder-suggestions.js';
import * as routes from './reorder.routes.js';

export const reorderRouter: Router = createRouter().openapi(routes.reorderSuggestions, async (c) =>
  ok(c, await reorderSuggestions(authedCtx(c), c.req.valid('query'))),
);
