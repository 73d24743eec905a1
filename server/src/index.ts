/** `npm start`: read the config, open and migrate the database, serve, and shut down gracefully. */
import { serve } from '@hono/node-server';
import { createApp, createDeps } from './app.js';
import { openDatabase } from './boot.js';
import { type Config, ConfigError, loadConfig } from './env.js';
import { createLogger } from './lib/logger.js';
import { attachRealtime } from './sync/ws/attach.js';
import { pruneChangeLog } from './sync/pull/services/prune.js';
import { pruneSyncRecords } from './sync/push/services/retention.js';
import { runScheduledReports } from './modules/reports/services/scheduler.js';
import { expiryJobState, runExpiryJob } from './modules/pharmacy/services/expiry-job.js';
import { runBillingJobs } from './modules/billing/services/billing-jobs.js';
import { pruneAuthCounters } from './modules/auth/services/sign-in-guard.js';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const log = createLogger(config.LOG_LEVEL);
const handle = await openDatabase(config, log);
const deps = createDeps(config, handle, log);
const app = createApp(deps, handle.ping);
let lastPrune = 0;
const expiry = expiryJobState();
const retry = setInterval(() => {
  void deps.messenger.retryFailed().catch((err) => log.warn({ err }, 'outbox retry failed'));
  void deps.sms.pollReports().catch((err) => log.warn({ err }, 'SMS delivery report polling failed'));
  void deps.events.retryPending().catch((err) => log.warn({ err }, 'event retry failed'));
  void runScheduledReports(deps).catch((err) => log.warn({ err }, 'scheduled reports failed'));
  void runExpiryJob(deps, expiry).catch((err) => log.warn({ err }, 'expiry job failed'));
  void runBillingJobs(deps).catch((err) => log.warn({ err }, 'billing jobs failed'));
  if (Date.now() - lastPrune >= 3_600_000) {
    lastPrune = Date.now();
    void pruneChangeLog(deps).catch((err) => log.warn({ err }, 'change log pruning failed'));
    void pruneSyncRecords(deps).catch((err) => log.warn({ err }, 'sync record pruning failed'));
    void pruneAuthCounters(deps).catch((err) => log.warn({ err }, 'sign-in counter pruning failed'));
  }
}, 30_000);

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  log.info({ port: info.port, base_path: config.BASE_PATH, database: handle.dialect }, `Duka API at http://localhost:${info.port}${config.BASE_PATH}`);
});
const realtime = attachRealtime(server, deps);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  clearInterval(retry);
  const force = setTimeout(() => {
    log.warn('in-flight requests did not finish in 10 s; closing anyway');
    process.exit(1);
  }, 10_000);
  force.unref();
  // Websockets first (close code 1001, "server shutting down"): the HTTP server waits for them.
  await realtime.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
  await handle.close();
  log.info('stopped');
  process.exit(0);
}
const upkeep = setInterval(() => void handle.maintain().catch((err) => log.warn({ err }, 'database upkeep failed')), 3_600_000);
upkeep.unref();
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
