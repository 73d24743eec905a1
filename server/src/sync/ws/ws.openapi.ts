/** The websocket upgrade is not a Hono route; this documents it in the OpenAPI reference. */
import type { Router } from '../../lib/create-router.js';

export function documentRealtime(api: Router): void {
  api.openAPIRegistry.registerPath({
    method: 'get',
    path: '/sync/ws',
    tags: ['Sync'],
    summary: 'Realtime channel (websocket) for a till',
    description:
      'Upgrade with `Authorization: Bearer <token>` or `?access_token=`. The server sends JSON messages with a `type`: `hello` { version, protocol }, ' +
      '`poke` { version } after every committed change the till can see (at most one per 50 ms), `stock` { product_id, stock }, `notification` { notification }. ' +
      'Close codes: 4001 token expired, 4003 session revoked, 1001 server shutting down, 1013 try again later. Heartbeat pings detect dead peers.',
    security: [{ bearerAuth: [] }],
    responses: {
      101: { description: 'Switching to the websocket protocol' },
      401: { description: 'Missing, invalid, expired or revoked token (before the upgrade)' },
    },
  });
}
