/**
 * Issue 34's deployment, for the scale-out tests: a new, empty PostgreSQL database; a real
 * PgBouncer in transaction mode in front of it; `count` server processes (`npm start`'s entry
 * point) reaching it through the pooler, with a direct connection for LISTEN and migrations; and a
 * real nginx balancing round robin in front of them. `env` adds settings for every instance.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { LOAD_RUN_LIMITS } from '../../server/src/env.js';
import { ServerProcess } from '../chaos/server-process.js';
import { freePort } from '../setup/free-port.js';
import { type LoadBalancer, startNginx } from '../setup/nginx.js';
import { type PgBouncer, startPgBouncer } from '../setup/pgbouncer.js';
import { adminQuery } from '../setup/test-db.js';

export const SECRET = 'scale-out-secret-scale-out-secret-0001';

export interface Deployment {
  /** The database itself (what DATABASE_DIRECT_URL names), for the tests' own reads. */
  databaseUrl: string;
  pooler: PgBouncer;
  servers: ServerProcess[];
  balancer: LoadBalancer;
  /** The API through the balancer, or through one instance. */
  api(instance?: number): string;
  stop(): Promise<void>;
}

export async function deploy(count: number, env: Record<string, string> = {}): Promise<Deployment> {
  const name = `scale_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const databaseUrl = inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
  const pooler = await startPgBouncer(databaseUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-scale-out-'));
  const servers: ServerProcess[] = [];
  for (let i = 0; i < count; i++) {
    servers.push(
      new ServerProcess(await freePort(), {
        DATABASE_URL: pooler.pooled(databaseUrl),
        DATABASE_DIRECT_URL: databaseUrl,
        DATA_DIR: path.join(dir, `server-${i + 1}`),
        JWT_SECRET: SECRET,
        ...LOAD_RUN_LIMITS,
        ...env,
      }),
    );
  }
  // All at once, on an empty database: the migrator's lock (on the direct connection) lets one migrate.
  await Promise.all(servers.map((s) => s.start()));
  const balancer = await startNginx(servers.map((s) => s.port));
  return {
    databaseUrl,
    pooler,
    servers,
    balancer,
    api: (instance) => `${instance === undefined ? balancer.url : servers[instance]!.url}/api/v1`,
    async stop() {
      await balancer.stop().catch(() => {});
      await Promise.all(servers.map((s) => s.stop().catch(() => {})));
      await pooler.stop().catch(() => {});
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A JSON call to the API; throws with the answer unless it is 2xx. */
export async function call(base: string, method: string, route: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}
