import { Envelope, ReorderSuggestions, ReorderSuggestionsQuery } from '@duka/shared';
import { defineRoute, jsonResponse } from '../../../lib/route.js';

export const reorderSuggestions = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/reorder-suggestions',
  operationId: 'listReorderSuggestions',
  description:
    'What to order for a store, by supplier (the supplier of each product’s last delivery; an "unknown supplier" group last): products at or under their reorder point, or whose stock lasts fewer days than the supplier’s lead time at the average daily sales of the last 28 days. Each suggestion is max(avg daily sales × (lead time + days of cover), reorder point) − stock − on order, rounded up to a whole piece or unit, or to whole packs of the largest pack, and says every figure it comes from (docs/inventory.md "Reorder suggestions"). Another organisation’s store is not found.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags: ['Inventory'],
  summary: 'Reorder suggestions for a store, grouped by supplier, each with its figures',
  request: { query: ReorderSuggestionsQuery },
  responses: { 200: jsonResponse(Envelope(ReorderSuggestions), 'Suggestions by supplier') },
});
