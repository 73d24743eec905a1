import {
  AddStockTakeCountsInput,
  ApplyStockTakeInput,
  Envelope,
  IdParam,
  ListStockTakesQuery,
  OpenStockTakeInput,
  StockTake,
  StockTakeSummary,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Inventory'];
const needs = { permission: 'stock' } as const;
const answer = { 200: jsonResponse(Envelope(StockTake), 'The stock take with its lines and totals') };

export const openStockTake = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/inventory/stock-takes',
  operationId: 'openStockTake',
  description:
    "Opens a count of the active store: every stocked product, one category, or a list. Batch-tracked products are counted lot by lot in pharmacy, services have no stock: neither is in a count's scope.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Open a stock take (all products, a category or a list)',
  request: { body: jsonBody(OpenStockTakeInput, { scope: 'category', category_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f' }) },
  responses: answer,
});

export const listStockTakes = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/inventory/stock-takes',
  operationId: 'listStockTakes',
  description: "The active store's stock takes, newest first, each with its totals (products counted, over, short, variance at cost).",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Past and open stock takes with their variance',
  request: { query: ListStockTakesQuery },
  responses: { 200: jsonResponse(Envelope(z.array(StockTakeSummary)), 'Stock takes') },
});

export const getStockTake = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/inventory/stock-takes/{id}',
  operationId: 'getStockTake',
  description:
    "The review: per product expected (the store's level when the product was counted: sales placed at the time they were made), counted (summed over counters), variance in units and at cost, and the totals.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Review a stock take',
  request: { params: IdParam },
  responses: answer,
});

export const exportStockTake = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/inventory/stock-takes/{id}/export.csv',
  operationId: 'exportStockTake',
  description:
    'The review as CSV, one row per product (product_id, name, unit, expected, counted, variance, cost_price, variance_value, change).',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A stock take as CSV',
  request: { params: IdParam },
  responses: {
    200: {
      description: 'A download',
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

export const addStockTakeCounts = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/inventory/stock-takes/{id}/counts',
  operationId: 'addStockTakeCounts',
  description:
    "Adds counters' counts to an open stock take, in the product's unit (whole for a piece product, up to 3 decimals for a measured one). Counts of one product are summed; a count whose `id` was recorded already is skipped, so a till may send its counts again after an outage.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Add counts (summed per product; replays by count id are skipped)',
  request: {
    params: IdParam,
    body: jsonBody(AddStockTakeCountsInput, {
      counts: [{ id: '7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e', product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 12 }],
    }),
  },
  responses: answer,
});

export const applyStockTake = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/inventory/stock-takes/{id}/apply',
  operationId: 'applyStockTake',
  description:
    'Posts one adjustment per product whose count differs from its expected (reason `stock_take`), and leaves products nobody counted alone or sets them to zero, in one transaction. Applying again moves nothing and answers the applied stock take; a cancelled one is 409.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Apply a stock take to the stock, once',
  request: { params: IdParam, body: jsonBody(ApplyStockTakeInput, { uncounted: 'leave' }) },
  responses: answer,
});

export const cancelStockTake = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/inventory/stock-takes/{id}/cancel',
  operationId: 'cancelStockTake',
  description: 'Cancels an open stock take; no stock moves. Cancelling again answers the same; an applied one is 409.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Cancel a stock take',
  request: { params: IdParam },
  responses: answer,
});
