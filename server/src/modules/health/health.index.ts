/** Load-balancer probes at the server root (outside BASE_PATH), as plain JSON without the envelope. */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context.js';

export function healthRouter(ping: () => Promise<void>) {
  return new Hono<AppEnv>()
    .get('/health/live', (c) => c.json({ status: 'ok' }))
    .get('/health/ready', async (c) => {
      try {
        await ping();
        return c.json({ status: 'ok', database: 'ok' });
      } catch {
        return c.json({ status: 'unavailable', database: 'unreachable' }, 503);
      }
    });
}
