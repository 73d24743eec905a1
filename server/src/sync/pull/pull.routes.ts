import { BootstrapQuery, BootstrapResponse, Envelope, PullQuery, PullResponse } from '@duka/shared';
import { syncProtocolHeader, unsupportedProtocolResponse } from '../protocol-version.js';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Sync'];

export const pull = defineRoute('bearer', {
  method: 'get',
  path: '/sync/pull',
  operationId: 'pullChanges',
  errors: ['DEVICE_RETIRED', 'INVALID_STATE', 'NOT_FOUND', 'UNSUPPORTED_PROTOCOL'],
  tags,
  summary: "Changes after the cursor to what this till holds (its organisation, its store's rows)",
  description:
    "Changes come in version order, each row once per page with its current state; `op: delete` means the row is gone or no longer held (a settled tab, a sale older than 30 days). Send the answer's `cursor` back next time and pull again while `has_more`. `reset_required: true` means the cursor is older than the change log keeps: bootstrap again. Another organisation's cursor or a malformed one is 400.",
  request: { headers: syncProtocolHeader, query: PullQuery },
  responses: { 200: jsonResponse(Envelope(PullResponse), 'A page of changes'), ...unsupportedProtocolResponse },
});

export const bootstrap = defineRoute('bearer', {
  method: 'get',
  path: '/sync/bootstrap',
  operationId: 'bootstrapTill',
  errors: ['INVALID_STATE', 'NOT_FOUND', 'UNSUPPORTED_PROTOCOL'],
  tags,
  summary: 'Everything this till holds, in pages, and the cursor to pull from afterwards',
  description:
    "Start without `page_token`, then send each answer's `page_token` until it is null. Rows come kind by kind (organisation, store, category, product, stock, customer, credit_tab, transaction, notification) as `op: upsert` changes stamped with the snapshot's version. Then pull from `cursor`: it delivers everything written while the pages were read. A page token is valid only as issued (400 otherwise). Every page but the last also names the next page's token in the `duka-next-page-token` header, so that a till can ask for it before parsing this one; the server has begun reading it already. With `levels=products` there are no `stock` rows: the store's levels come only as each product's `stock` and `unit`, which every product row carries (keep the same `levels` for the whole walk).",
  request: { headers: syncProtocolHeader, query: BootstrapQuery },
  responses: { 200: jsonResponse(Envelope(BootstrapResponse), 'A page of the snapshot'), ...unsupportedProtocolResponse },
});

export const ping = defineRoute('public', {
  method: 'get',
  path: '/sync/ping',
  operationId: 'pingServer',
  tags,
  summary: "A till's connectivity probe: answers at once, touching no database",
  description:
    'A till that has lost the server asks this every few seconds, under the API base path it already reaches (the load-balancer probes at the server root may not be routed to it), and syncs as soon as it answers. Not rate-limited: it costs less than counting it would.',
  responses: { 200: jsonResponse(Envelope(z.object({ status: z.literal('ok') })), 'The server is reachable') },
});
