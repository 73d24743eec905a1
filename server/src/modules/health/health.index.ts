/**
 * Load-balancer probes at the server root (outside BASE_PATH), as plain JSON without the envelope.
 * Ready means the database answers and nothing that shops depend on has silently stopped: an
 * outbox whose oldest undelivered message is older than READY_STUCK_MINUTES, or a background job
 * running or failing that long, fails the probe with the reason, so the alert fires first.
 */
import { Hono } from 'hono';
import type { AppEnv, Deps } from '../../lib/context.js';

type Probed = Pick<Deps, 'config' | 'clock' | 'jobs' | 'messenger'>;

async function problems(deps: Probed): Promise<string[]> {
  const limit = deps.config.READY_STUCK_MINUTES * 60_000;
  const out = deps.jobs.stuck(limit);
  const { oldest } = await deps.messenger.backlog();
  if (oldest !== null && deps.clock.now() - oldest > limit)
    out.push(`the outbox has not delivered a message for ${Math.round((deps.clock.now() - oldest) / 60_000)} min`);
  return out;
}

export function healthRouter(ping: () => Promise<void>, deps: Probed) {
  return new Hono<AppEnv>()
    .get('/health/live', (c) => c.json({ status: 'ok' }))
    .get('/health/ready', async (c) => {
      try {
        await ping();
      } catch {
        return c.json({ status: 'unavailable', database: 'unreachable' }, 503);
      }
      const stuck = await problems(deps);
      return stuck.length
        ? c.json({ status: 'unavailable', database: 'ok', problems: stuck }, 503)
        : c.json({ status: 'ok', database: 'ok' });
    });
}
