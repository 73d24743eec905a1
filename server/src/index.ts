/** `npm start`: read the config, open and migrate the database, serve, and shut down gracefully. */
import { serve } from '@hono/node-server';
import { createApp, createDeps } from './app.js';
import { checkSigningSecret, openDatabase, refuseDeafListen } from './boot.js';
import { soleServer } from './db/dialect.js';
import { type Config, ConfigError, loadConfig } from './env.js';
import { createLogger } from './lib/logger.js';
import { attachRealtime } from './sync/ws/attach.js';
import { releaseDeadClaims } from './modules/fiscal/fiscal.exports.js';
import { backgroundJobs, TICK_MS } from './background-jobs.js';
import { startBackups } from './backups.js';
import { metricsRouter } from './modules/health/health.exports.js';

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
try {
  await checkSigningSecret(config, handle);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  await handle.close();
  process.exit(1);
}
await refuseDeafListen(config, handle, log);
const deps = createDeps(config, handle, log);
if (soleServer(handle.dialect)) await releaseDeadClaims(deps);
const app = createApp(deps, handle.ping);
const backups = await startBackups(config, deps, log);
deps.metrics.startProcessMetrics();
const jobs = backgroundJobs(deps);
const retry = setInterval(() => void jobs.tick(), TICK_MS);

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  log.info(
    { port: info.port, base_path: config.BASE_PATH, database: handle.dialect, files: config.STORAGE_DRIVER },
    `Duka API at http://localhost:${info.port}${config.BASE_PATH}`,
  );
});
const realtime = attachRealtime(server, deps);
// Metrics without a token, on a port only the scraper should reach.
const metricsServer = config.METRICS_PORT
  ? serve({ fetch: metricsRouter(deps, { open: true }).fetch, port: config.METRICS_PORT, hostname: config.HOST }, (info) =>
      log.info({ port: info.port }, 'metrics at /metrics'),
    )
  : null;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  clearInterval(retry);
  backups.stop();
  const force = setTimeout(() => {
    log.warn('in-flight requests did not finish in 10 s; closing anyway');
    process.exit(1);
  }, 10_000);
  force.unref();
  // Websockets first (close code 1001, "server shutting down"): the HTTP server waits for them.
  await realtime.close();
  metricsServer?.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
  // A receipt cut off mid-send is resent, same bytes, once its claim lapses; waiting a little saves that.
  await Promise.race([
    Promise.all([deps.fiscal.idle(), deps.afterAnswer.idle()]),
    new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
  ]);
  await handle.close();
  log.info('stopped');
  process.exit(0);
}
// Planner statistics kept up with the tables' growth (handle.ts).
let upkeeping = false;
// Said once as it starts failing and once as it recovers: PostgreSQL's upkeep runs every 2 s, and
// a database that is down for a minute must not fill the log (the 503s and readiness say it is down).
let upkeepFailing = false;
const upkeep = setInterval(() => {
  // One round at a time: an ANALYZE slower than the interval is not started twice.
  if (upkeeping) return;
  upkeeping = true;
  void handle
    .maintain()
    .then(() => {
      if (upkeepFailing) log.info('database upkeep works again');
      upkeepFailing = false;
    })
    .catch((err) => {
      if (!upkeepFailing) log.warn({ err }, 'database upkeep failed');
      upkeepFailing = true;
    })
    .finally(() => (upkeeping = false));
}, handle.maintainEveryMs);
upkeep.unref();
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
