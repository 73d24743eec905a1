/**
 * The websocket upgrade is not a Hono route; this documents it in the OpenAPI reference. Its
 * refusals are attach.ts's, answered before the upgrade in the error envelope of every route,
 * with X-Request-Id (and Retry-After on 429 and 503) but no RateLimit-* headers.
 */
import { ERROR_STATUS, type ErrorCode } from '@duka/shared';
import type { Router } from '../../lib/create-router.js';
import { errorAnswer } from '../../lib/openapi.js';
import { accessExtension, accessSentence } from '../../lib/route-access.js';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Each refusal's codes, and what sends it on this path when that is not plain from the code. */
const REFUSALS: Array<[readonly ErrorCode[], string?]> = [
  [['UNAUTHENTICATED', 'TOKEN_EXPIRED'], 'a missing, invalid, expired or signed-out token, or a deactivated account'],
  [
    ['FORBIDDEN', 'PASSWORD_CHANGE_REQUIRED'],
    'an account of no organisation (a platform administrator), or a session signed in with a temporary password',
  ],
  [['NOT_FOUND'], 'not a websocket upgrade: a plain GET of this path has no route'],
  [['RATE_LIMITED']],
  [['INTERNAL']],
  [['SERVICE_UNAVAILABLE'], 'the server is shutting down, or realtime updates are not ready yet'],
];

function refused(codes: readonly ErrorCode[], when?: string) {
  const status = ERROR_STATUS[codes[0]!];
  const answer = errorAnswer(codes);
  const retry = status === 429 || status === 503;
  return [
    status,
    {
      ...answer,
      description: when ? `${answer.description}. Here: ${when}` : answer.description,
      headers: { 'X-Request-Id': header('X-Request-Id'), ...(retry ? { 'Retry-After': header('Retry-After') } : {}) },
    },
  ] as const;
}

export function documentRealtime(api: Router): void {
  api.openAPIRegistry.registerPath({
    method: 'get',
    path: '/sync/ws',
    operationId: 'openRealtimeChannel',
    tags: ['Sync'],
    summary: 'Realtime channel (websocket) for a till',
    description:
      'Upgrade with `Authorization: Bearer <token>` or `?access_token=`. The server sends JSON messages with a `type`: `hello` { version, protocol }, ' +
      '`poke` { version } after every committed change the till can see (at most one per 50 ms), `stock` { product_id, stock } (or, to a till that upgraded with `?accept=stocks`, one `stocks` { items: [{ product_id, stock }] } per read of its store’s stock), `notification` { notification }, `payment` { payment: PaymentRequestState } when a payment request of the store changes state. ' +
      'Close codes: 4001 token expired, 4003 session revoked, 1001 server shutting down, 1013 try again later. Heartbeat pings detect dead peers. ' +
      accessSentence('bearer'),
    'x-duka-access': accessExtension('bearer'),
    security: [{ bearerAuth: [] }],
    responses: {
      101: { description: 'Switching to the websocket protocol' },
      ...Object.fromEntries(REFUSALS.map(([codes, when]) => refused(codes, when))),
    },
  });
}
