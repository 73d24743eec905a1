/**
 * Load-balancer probes at the server root (outside BASE_PATH), as plain JSON without the envelope.
 * Ready means the database answers and nothing that shops depend on has silently stopped: an
 * outbox whose oldest undelivered message is older than READY_STUCK_MINUTES, or a background job
 * running or failing that long, fails the probe with the reason, so the alert fires first.
 *
 * The file store (the object store, or DATA_DIR's disk) is asked too. When it cannot be reached the
 * probe answers 200 `degraded`, `files: unreachable`, with the reason: uploads, downloads and report
 * exports fail (503, Retry-After) but sales and sync do not need it, and a 503 here would take every
 * instance out of the balancer at once and stop them too (docs/operations.md, Health).
 */
import { Hono } from 'hono';
import type { AppEnv, Deps } from '../../lib/context.js';

type Probed = Pick<Deps, 'config' | 'clock' | 'jobs' | 'messenger' | 'storage' | 'log'>;

/** How long the probe waits for the file store: a probe's own timeout is a few seconds. */
const FILES_PROBE_MS = 2_000;

async function problems(deps: Probed): Promise<string[]> {
  const limit = deps.config.READY_STUCK_MINUTES * 60_000;
  const out = deps.jobs.stuck(limit);
  const { oldest } = await deps.messenger.backlog();
  if (oldest !== null && deps.clock.now() - oldest > limit)
    out.push(`the outbox has not delivered a message for ${Math.round((deps.clock.now() - oldest) / 60_000)} min`);
  return out;
}

export function healthRouter(ping: () => Promise<void>, deps: Probed) {
  let filesWereOk = true;
  /** Null when the store answers; logged once as it goes away and once as it comes back. */
  async function filesProblem(): Promise<string | null> {
    const failure = await deps.storage.check(FILES_PROBE_MS).then(
      () => null,
      (err: Error) => err,
    );
    if (failure && filesWereOk) deps.log.warn({ err: failure }, 'the file store is unreachable: uploads and downloads answer 503');
    if (!failure && !filesWereOk) deps.log.info('the file store answers again');
    filesWereOk = !failure;
    return failure
      ? `the file store (${deps.config.STORAGE_DRIVER === 's3' ? 'object store' : 'DATA_DIR/files'}) is unreachable: uploads, downloads and report exports answer 503`
      : null;
  }

  return new Hono<AppEnv>()
    .get('/health/live', (c) => c.json({ status: 'ok' }))
    .get('/health/ready', async (c) => {
      try {
        await ping();
      } catch {
        return c.json({ status: 'unavailable', database: 'unreachable' }, 503);
      }
      const [stuck, files] = await Promise.all([problems(deps), filesProblem()]);
      const state = { database: 'ok', files: files ? 'unreachable' : 'ok' };
      if (stuck.length) return c.json({ status: 'unavailable', ...state, problems: files ? [...stuck, files] : stuck }, 503);
      return files ? c.json({ status: 'degraded', ...state, problems: [files] }) : c.json({ status: 'ok', ...state });
    });
}
