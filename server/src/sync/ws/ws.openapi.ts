/** The websocket upgrade is not a Hono route; this documents it in the OpenAPI reference. */
import { ErrorBody } from '@duka/shared';
import type { Router } from '../../lib/create-router.js';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const refused = (description: string, retry = false) => ({
  description,
  headers: { 'X-Request-Id': header('X-Request-Id'), ...(retry ? { 'Retry-After': header('Retry-After') } : {}) },
  content: { 'application/json': { schema: ErrorBody } },
});

export function documentRealtime(api: Router): void {
  api.openAPIRegistry.registerPath({
    method: 'get',
    path: '/sync/ws',
    operationId: 'openRealtimeChannel',
    tags: ['Sync'],
    summary: 'Realtime channel (websocket) for a till',
    description:
      'Upgrade with `Authorization: Bearer <token>` or `?access_token=`. The server sends JSON messages with a `type`: `hello` { version, protocol }, ' +
      '`poke` { version } after every committed change the till can see (at most one per 50 ms), `stock` { product_id, stock }, `notification` { notification }. ' +
      'Close codes: 4001 token expired, 4003 session revoked, 1001 server shutting down, 1013 try again later. Heartbeat pings detect dead peers. ' +
      'Any signed-in user of a shop (an administrator without an organisation is refused).',
    security: [{ bearerAuth: [] }],
    responses: {
      101: { description: 'Switching to the websocket protocol' },
      401: refused('Missing, invalid, expired or revoked token (before the upgrade)'),
      403: refused('The account belongs to no organisation, or signed in with a temporary password'),
      404: refused('Not a websocket upgrade: a plain GET of this path has no route'),
      429: refused('Too many requests by this user', true),
      500: refused('An unexpected error; `meta.request_id` identifies it in the logs'),
      503: refused('The server is shutting down, or realtime updates are not ready yet: connect again after Retry-After', true),
    },
  });
}
