/**
 * The server's background jobs (outbox retries, scheduled reports, expiry, billing, pruning): each
 * run is counted, and a job that has been running, or failing, for too long makes the readiness
 * probe fail, so an operator's alert fires before shops notice missing messages or reports.
 */
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

interface JobState {
  /** When the run in progress started (ms), or null. */
  runningSince: number | null;
  lastSuccess: number | null;
  /** The first failure since the last success (ms), or null. */
  failingSince: number | null;
}

export class JobMonitor {
  private readonly jobs = new Map<string, JobState>();

  constructor(
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** Run `fn` as job `name`; a run still going when the next is due is not started twice. */
  async run(name: string, fn: () => Promise<unknown>): Promise<void> {
    let s = this.jobs.get(name);
    if (!s) this.jobs.set(name, (s = { runningSince: null, lastSuccess: null, failingSince: null }));
    if (s.runningSince !== null) return;
    s.runningSince = this.now();
    this.metrics.jobRuns.inc({ job: name });
    try {
      await fn();
      s.lastSuccess = this.now();
      s.failingSince = null;
    } catch (err) {
      this.metrics.jobFailures.inc({ job: name });
      s.failingSince ??= this.now();
      this.log.warn({ err, job: name }, 'job failed');
    } finally {
      s.runningSince = null;
    }
  }

  /** Jobs running or failing for longer than `thresholdMs`, each with why. */
  stuck(thresholdMs: number): string[] {
    const now = this.now();
    const out: string[] = [];
    for (const [name, s] of this.jobs) {
      if (s.runningSince !== null && now - s.runningSince > thresholdMs)
        out.push(`${name} has been running for ${Math.round((now - s.runningSince) / 60_000)} min`);
      else if (s.failingSince !== null && now - s.failingSince > thresholdMs)
        out.push(`${name} has been failing for ${Math.round((now - s.failingSince) / 60_000)} min`);
    }
    return out;
  }
}
