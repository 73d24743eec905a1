/**
 * GET /metrics at the server root, in Prometheus text format. On the API's port it needs
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time) and is not served at all
 * without one configured; METRICS_PORT serves it without a token on a port of its own, for
 * networks where only the scraper reaches that port.
 */
import { Hono } from 'hono';
import { bearerToken } from '../../lib/auth/middleware.js';
import type { AppEnv, Deps } from '../../lib/context.js';
import { safeEqual } from '../../lib/crypto.js';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function metricsRouter(deps: Pick<Deps, 'config' | 'metrics'>, opts: { open?: boolean } = {}) {
  const token = deps.config.METRICS_TOKEN;
  return new Hono<AppEnv>().get('/metrics', async (c) => {
    if (!opts.open) {
      if (!token) return c.notFound();
      const sent = bearerToken(c.req.header('authorization'));
      if (!sent || !safeEqual(sent, token)) return c.json({ status: 'unauthorized' }, 401, { 'WWW-Authenticate': 'Bearer' });
    }
    return c.body(await deps.metrics.text(), 200, { 'content-type': CONTENT_TYPE });
  });
}
