/** A bare Hono JSON route on @hono/node-server: the ceiling any Duka route is compared with. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/ping', (c) => c.json({ ok: true }));
serve({ fetch: app.fetch, port: Number(process.env.PORT) });
process.on('SIGTERM', () => process.exit(0));
