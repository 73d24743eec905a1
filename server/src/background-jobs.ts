/**
 * The server's background jobs, run by `index.ts` on a 30 s timer. Each instance sharing the
 * database ticks; each job runs under lease `job:<name>`, kept for the job's period after it
 * starts, so of all the instances one runs it per period (docs/operations.md, "Jobs across
 * instances"). The work inside takes finer leases or claims of its own where a unit can also start
 * elsewhere (an event's first delivery after commit, a fiscal device drained after a sale).
 */
import type { AppDeps } from './app.js';
import type { Lease } from './lib/leases.js';
import { pruneIdempotencyKeys } from './lib/idempotency.js';
import { pruneAgentState } from './modules/ai/ai.exports.js';
import { runBillingJobs } from './modules/billing/billing.exports.js';
import { pruneAuthCounters } from './modules/auth/auth.exports.js';
import { runFiscalJobs } from './modules/fiscal/fiscal.exports.js';
import { runPaymentRequestJobs, runPaymentMatching } from './modules/payments/payments.exports.js';
import { expiryJobState, type ExpiryJobState, runExpiryJob } from './modules/pharmacy/pharmacy.exports.js';
import { runScheduledReports } from './modules/reports/reports.exports.js';
import { pruneChangeLog } from './sync/pull/services/prune.js';
import { pruneSyncRecords } from './sync/push/services/retention.js';

export const TICK_MS = 30_000;
/** A little under the tick: an instance ticking on time is never a period short. */
const EVERY_TICK = TICK_MS - 5_000;
const HOURLY = 3_600_000 - 60_000;

interface Job {
  name: string;
  /** The lease is kept this long after a run starts: the job's period across instances. */
  everyMs: number;
  run(deps: AppDeps, lease: Lease, state: { expiry: ExpiryJobState }): Promise<unknown>;
}

const JOBS: Job[] = [
  { name: 'outbox-retry', everyMs: EVERY_TICK, run: (deps) => deps.messenger.retryFailed() },
  { name: 'sms-delivery-reports', everyMs: EVERY_TICK, run: (deps, lease) => deps.sms.pollReports(lease) },
  { name: 'event-retry', everyMs: EVERY_TICK, run: (deps) => deps.events.retryPending() },
  { name: 'scheduled-reports', everyMs: EVERY_TICK, run: (deps) => runScheduledReports(deps) },
  { name: 'pharmacy-expiry', everyMs: EVERY_TICK, run: (deps, lease, state) => runExpiryJob(deps, state.expiry, lease) },
  { name: 'billing', everyMs: EVERY_TICK, run: (deps, lease) => runBillingJobs(deps, lease) },
  { name: 'fiscal', everyMs: EVERY_TICK, run: (deps) => runFiscalJobs(deps) },
  { name: 'payment-requests', everyMs: EVERY_TICK, run: (deps, lease) => runPaymentRequestJobs(deps, lease) },
  { name: 'payment-matching', everyMs: EVERY_TICK, run: (deps, lease) => runPaymentMatching(deps, lease) },
  { name: 'prune-change-log', everyMs: HOURLY, run: (deps) => pruneChangeLog(deps) },
  { name: 'prune-sync-records', everyMs: HOURLY, run: (deps) => pruneSyncRecords(deps) },
  { name: 'prune-auth-counters', everyMs: HOURLY, run: (deps) => pruneAuthCounters(deps) },
  { name: 'prune-idempotency-keys', everyMs: HOURLY, run: (deps) => pruneIdempotencyKeys(deps) },
  { name: 'prune-agent-state', everyMs: HOURLY, run: (deps) => pruneAgentState(deps) },
  { name: 'prune-job-leases', everyMs: HOURLY, run: (deps) => deps.leases.prune() },
];

export const JOB_NAMES = JOBS.map((j) => j.name);

/** This instance's jobs: `tick()` starts every job whose lease is free, and resolves when they end. */
export function backgroundJobs(deps: AppDeps): { tick(): Promise<void> } {
  const state = { expiry: expiryJobState() };
  return {
    async tick() {
      await Promise.all(
        JOBS.map((job) =>
          deps.jobs.run(job.name, () =>
            deps.leases.run(`job:${job.name}`, { keepMs: job.everyMs }, (lease) => job.run(deps, lease, state)),
          ),
        ),
      );
    },
  };
}
