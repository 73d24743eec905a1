/** The real app, in process, over a fresh database, with a clock the test can move. */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { type AppDeps, createApp, createDeps } from '../../server/src/app.js';
import { type Config, testConfig } from '../../server/src/env.js';
import type { Clock } from '../../server/src/lib/clock.js';
import type { ServiceContext } from '../../server/src/lib/context.js';
import { appendFileSync } from 'node:fs';
import { checkerFor, type OpenApiChecker } from './openapi-check.js';
import { createTestDb, type DIALECT, type TestDb } from './test-db.js';

export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  raw?: string;
  /** Sent as multipart/form-data (the boundary header is set by the encoder). */
  form?: FormData;
  token?: string;
  headers?: Record<string, string>;
  /** false: return as soon as the answer is read, with the route's after-answer work still to run (timing tests). */
  settle?: boolean;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  db: TestDb;
  clock: TestClock;
  config: Config;
  dialect: typeof DIALECT;
  /**
   * A request through the whole app (middleware, validation, handlers, error rendering). Its answer
   * is checked against the app's own OpenAPI document: an undocumented status, a missing header or
   * a body off its schema fails the test (test/setup/openapi-check.ts).
   */
  request(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse>;
  /** A service context for factories that write directly (only where no route exists yet). */
  serviceCtx(): ServiceContext;
  close(): Promise<void>;
}

/**
 * `planLimits`: keep the seeded free plan's limits (billing tests). Other areas' tests grow an
 * organisation past a kiosk's limits (stores, staff) without meaning to test billing, so by default
 * the free plan is unlimited in stores, staff and products.
 */
export async function createTestApp(
  opts: {
    config?: Partial<Config>;
    ping?: () => Promise<void>;
    planLimits?: boolean;
    /** Changes the document answers are checked against (to show the check catches a drift). */
    checkAgainst?: (doc: Record<string, any>) => Record<string, any>;
    /** SQLite: a database file instead of memory (a second connection can open a file). */
    sqliteFile?: string;
    /** The server's clock; default one that moves only when the test advances it. */
    clock?: TestClock;
    /** A database of the test's own instead of a fresh one (closed with the app). */
    db?: TestDb;
  } = {},
): Promise<TestApp> {
  const config = testConfig(opts.config);
  const db = opts.db ?? (await createTestDb({ countStatements: config.COUNT_STATEMENTS, sqliteFile: opts.sqliteFile }));
  if (!opts.planLimits)
    await db.db.updateTable('plans').set({ max_stores: null, max_staff: null, max_products: null }).where('code', '=', 'free').execute();
  const clock = opts.clock ?? testClock();
  const deps = createDeps(config, db, pino({ level: 'silent' }), clock);
  const app = createApp(deps, opts.ping ?? db.ping);
  const base = config.BASE_PATH;
  let checker: OpenApiChecker | undefined;
  async function openapi(): Promise<OpenApiChecker> {
    if (checker) return checker;
    const doc = (await (await app.request(`${base}/openapi.json`)).json()) as Record<string, any>;
    return (checker = checkerFor(opts.checkAgainst ? opts.checkAgainst(doc) : doc));
  }

  async function request(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...o.headers };
    let body: string | FormData | undefined;
    if (o.form !== undefined) body = o.form;
    else if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const url = path.startsWith('/health') ? path : `${base}${path}`;
    const res = await app.request(url, { method, headers, body });
    const text = await res.text();
    // What a route does after answering (a code sent) is done before a test reads the database.
    if (o.settle !== false) await deps.afterAnswer.idle();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const answer = { status: res.status, headers: res.headers, body: parsed, text };
    if (!path.startsWith('/health')) {
      const check = await openapi();
      const exchange = { method, path, ...answer, request: { headers, body: o.body ?? o.raw } };
      // OPENAPI_CHECK_REPORT=file collects every drift of a run into one file instead of failing at the first.
      const report = process.env.OPENAPI_CHECK_REPORT;
      if (!report) check.check(exchange);
      else if (check.problems(exchange).length)
        appendFileSync(
          report,
          `${JSON.stringify({ op: check.find(method, path)?.id, method, path, status: res.status, problems: check.problems(exchange), body: text.slice(0, 300) })}\n`,
        );
    }
    return answer;
  }

  return {
    app,
    deps,
    db,
    clock,
    config,
    dialect: db.dialect,
    request,
    serviceCtx: () => ({ ...deps, actor: null, requestId: 'test' }),
    close: () => db.drop(),
  };
}

export interface Listening {
  server: ServerType;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  close(): Promise<void>;
}

/** Serve the app over real HTTP on a free loopback port (websockets, callbacks from fake providers). */
export async function listen(t: Pick<TestApp, 'app'>): Promise<Listening> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
