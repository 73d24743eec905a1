/** `npm run agent`: the companion agent on AGENT_PORT. The only place that reads the environment. */
import { serve } from '@hono/node-server';
import pino from 'pino';
import { createAgent } from './app.js';
import { loadConfig } from './config.js';

let config;
try {
  config = loadConfig(process.env);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const log = pino({ level: config.LOG_LEVEL });
const { app, deps } = createAgent({ config, log });
const server = serve({ fetch: app.fetch, port: config.AGENT_PORT, hostname: config.AGENT_HOST }, (info) => {
  log.info({ port: info.port, api: config.API_URL, mode: deps.model ? 'model' : 'planner' }, `Duka agent at http://localhost:${info.port}`);
});
// The tools come from the API's OpenAPI document: fetch it now so a wrong API_URL shows at start (the agent still starts and retries on first use).
deps.runner.catalog().then(
  (c) => log.info({ tools: c.tools.size }, 'tools loaded'),
  (err) => log.warn({ err: String(err) }, 'tools not loaded yet; retried on the first question'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
