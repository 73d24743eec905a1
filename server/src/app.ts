/**
 * createApp(deps): the whole HTTP surface. Tests call it in-process; index.ts serves it.
 * Area routers are mounted under BASE_PATH; health probes stay at the root.
 */
import { createPublicKey } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { NEXT_PAGE_HEADER, PROTOCOL_HEADER } from '@duka/shared';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';
import { type Config, publicOrigin } from './env.js';
import type { DbHandle } from './db/handle.js';
import { DB_MS_HEADER, DB_WAIT_MS_HEADER, measureDb, STATEMENTS_HEADER } from './db/statement-count.js';
import { type Clock, systemClock } from './lib/clock.js';
import type { AppEnv, Deps } from './lib/context.js';
import { createRouter } from './lib/create-router.js';
import { deriveKeys } from './lib/crypto.js';
import { docsRouter } from './lib/docs.js';
import { registerDocumentComponents, TAGS } from './lib/openapi.js';
import { handleError } from './lib/error-response.js';
import { ServiceError } from './lib/errors.js';
import { createRateLimits } from './lib/rate-limit.js';
import { limitBody, methodsByPath, refuseNulInUrl } from './lib/request-guards.js';
import { storageFromConfig } from './lib/storage-config.js';
import { SessionGate } from './lib/auth/sessions.js';
import { logDriver, smtpDriver } from './messaging/drivers.js';
import { Messenger } from './messaging/messenger.js';
import { type SmsGateway, smsGateway } from './messaging/sms/gateway.js';
import { smsRouter } from './modules/sms/sms.exports.js';
import { paymentsRouter, SaleVerifier } from './modules/payments/payments.exports.js';
import { EventBus } from './events/event-bus.js';
import { customerStatsSubscriber, customersRouter } from './modules/customers/customers.exports.js';
import {
  findNotification,
  toNotification,
  lowStockNotifications,
  notificationsRouter,
} from './modules/notifications/notifications.exports.js';
import { accountsRouter } from './modules/accounts/accounts.exports.js';
import { adminRouter } from './modules/admin/admin.exports.js';
import { authRouter } from './modules/auth/auth.exports.js';
import { billingRouter, paymentProviderFromConfig } from './modules/billing/billing.exports.js';
import type { PaymentProvider } from './mobile-money/provider.js';
import { fiscalRouter, FiscalQueue, type TraGateway, traVfd } from './modules/fiscal/fiscal.exports.js';
import { analyticsRouter } from './modules/analytics/analytics.exports.js';
import { creditsRouter } from './modules/credits/credits.exports.js';
import { reportsRouter } from './modules/reports/reports.exports.js';
import { suppliersRouter } from './modules/suppliers/suppliers.exports.js';
import { expensesRouter } from './modules/expenses/expenses.exports.js';
import { healthRouter, metricsRouter } from './modules/health/health.exports.js';
import { inventoryRouter, reorderAdvice } from './modules/inventory/inventory.exports.js';
import { metaRouter } from './modules/meta/meta.exports.js';
import { posRouter, posSaleBooking } from './modules/pos/pos.exports.js';
import { shiftsRouter } from './modules/shifts/shifts.exports.js';
import { pharmacyRouter } from './modules/pharmacy/pharmacy.exports.js';
import { notebookRouter } from './modules/notebook/notebook.exports.js';
import { uploadsRouter } from './modules/uploads/uploads.exports.js';
import { reviewsRouter } from './modules/reviews/reviews.exports.js';
import { aiRouter } from './modules/ai/ai.exports.js';
import { staffRouter } from './modules/staff/staff.exports.js';
import { storesRouter } from './modules/stores/stores.exports.js';
// The context's providers (`ctx.subscriptionPayments`, `ctx.fiscal`…) are declared there: every program that compiles the app sees them.
import './providers.js';
import { pushRouter } from './sync/push/push.index.js';
import { Realtime } from './sync/ws/realtime.js';
import { AfterAnswer } from './lib/after-answer.js';
import { JobMonitor } from './lib/jobs.js';
import { Leases } from './lib/leases.js';
import { loggedPath } from './lib/logger.js';
import { Metrics, routeLabel } from './lib/metrics.js';
import { documentRealtime } from './sync/ws/ws.openapi.js';
import { pullRouter } from './sync/pull/pull.index.js';
import { browserApps } from './lib/browser-apps.js';

export const API_VERSION = '1.0.0';

/** The services' dependencies, with the concrete parts behind the ports that the server process drives (retries, websockets). */
export type AppDeps = Deps & {
  messenger: Messenger;
  events: EventBus;
  realtime: Realtime;
  sessions: SessionGate;
  sms: SmsGateway;
  subscriptionPayments: PaymentProvider;
  tra: TraGateway;
  fiscal: FiscalQueue;
  saleVerification: SaleVerifier;
};

export function createDeps(config: Config, handle: DbHandle, log: Logger, clock: Clock = systemClock): AppDeps {
  const showBodies = config.NODE_ENV !== 'production';
  const logged = logDriver(log, showBodies);
  const keys = deriveKeys(config.JWT_SECRET);
  const sms = smsGateway(config, handle, keys, clock, log, showBodies);
  const drivers = { sms: sms.driver, email: config.SMTP_URL ? smtpDriver(config.SMTP_URL, config.EMAIL_FROM) : logged };
  const loadNotification = async (orgId: string, storeId: string, id: string) => {
    const row = await findNotification(handle.db, orgId, storeId, id);
    return row ? toNotification(row) : null;
  };
  const realtime = new Realtime(handle.db, handle, log, loadNotification);
  const leases = new Leases(handle.db, handle.dialect, clock);
  const storage = storageFromConfig(config);
  const messenger = new Messenger(handle.db, drivers, log, clock, leases, storage, handle.probeDb);
  const metrics = new Metrics({
    openSockets: () => realtime.openSockets,
    outbox: async () => (await messenger.backlog()).counts,
    db: () => handle.stats(),
  });
  const tra = traVfd(config.TRA_TIMEOUT_MS, config.TRA_ANSWER_CERT ? createPublicKey(config.TRA_ANSWER_CERT) : undefined);
  const deps: Omit<AppDeps, 'fiscal' | 'saleVerification'> & Partial<Pick<AppDeps, 'fiscal' | 'saleVerification'>> = {
    db: handle.db,
    readDb: handle.readDb,
    dialect: handle.dialect,
    transact: handle.transact,
    settled: handle.settled,
    config,
    log,
    clock,
    keys,
    sms,
    messenger,
    limits: createRateLimits(config, handle),
    events: new EventBus(),
    realtime,
    storage,
    sessions: new SessionGate(handle.db),
    subscriptionPayments: paymentProviderFromConfig(config),
    saleBooking: posSaleBooking,
    reorderAdvice,
    tra,
    metrics,
    jobs: new JobMonitor(metrics, log, () => clock.now()),
    leases,
    afterAnswer: new AfterAnswer(log, handle.settled),
  };
  // The queue works with the same dependencies as a request, so it is made once they exist.
  deps.fiscal = new FiscalQueue(deps as AppDeps, tra);
  deps.saleVerification = new SaleVerifier(deps as AppDeps);
  return wire(deps as AppDeps);
}

function wire(deps: AppDeps): AppDeps {
  deps.realtime.onRevoked((target) => deps.sessions.forget(target));
  deps.realtime.onUserChanged((userId) => deps.sessions.forget({ userId }));
  deps.events.bind(deps);
  deps.events.subscribe(customerStatsSubscriber);
  deps.events.subscribe(lowStockNotifications);
  return deps;
}

export function createApp(deps: Deps, ping: () => Promise<void>) {
  const { config } = deps;
  const base = config.BASE_PATH;
  const app = new OpenAPIHono<AppEnv>();

  if (config.COUNT_STATEMENTS) {
    app.use('*', async (c, next) => {
      const use = await measureDb(next);
      // On the finished response's own headers: c.header() here would re-wrap its body as a stream (node-server's slower path).
      c.res.headers.set(STATEMENTS_HEADER, String(use.statements));
      c.res.headers.set(DB_MS_HEADER, use.ms.toFixed(1));
      c.res.headers.set(DB_WAIT_MS_HEADER, use.waitMs.toFixed(1));
    });
  }
  app.use('*', requestId({ limitLength: 100 }));
  // The API answers JSON; the pages it serves (the reference at /docs, the till at /till/) load
  // their scripts and styles from this server, Swagger UI styles elements inline, and the till
  // compiles SQLite's WebAssembly.
  const contentSecurityPolicy = {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
  app.use('*', secureHeaders({ crossOriginResourcePolicy: 'cross-origin', contentSecurityPolicy }));
  if (config.CORS_ORIGINS.length) {
    const any = config.CORS_ORIGINS.includes('*');
    app.use(
      '*',
      cors({
        origin: any ? '*' : config.CORS_ORIGINS,
        // A till served from another origin sends its sync protocol and reads the server's, and a
        // bootstrap page's next token (docs/sync.md).
        allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', PROTOCOL_HEADER],
        exposeHeaders: [
          'Retry-After',
          'Idempotent-Replayed',
          'X-Request-Id',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          PROTOCOL_HEADER,
          NEXT_PAGE_HEADER,
        ],
        maxAge: 600,
      }),
    );
  }
  app.use('*', async (c, next) => {
    const started = performance.now();
    const reqId = c.get('requestId');
    // A child logger per request costs more than the request itself on fast routes; the id is a field instead.
    c.set('log', deps.log);
    c.set('ctx', { ...deps, actor: null, requestId: reqId });
    await next();
    // Nothing leaves before what it could have read or written is on disk (db/wal-sync.ts).
    await deps.settled();
    deps.metrics.observeHttp(c.req.method, routeLabel(c), c.res.status, (performance.now() - started) / 1000);
    deps.log.info(
      {
        req_id: reqId,
        method: c.req.method,
        path: loggedPath(c),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        user: c.get('ctx').actor?.userId,
      },
      'request',
    );
  });
  // Pushes carry up to 500 queued mutations: 5 MB for them, BODY_LIMIT_BYTES for everything else.
  const pushPath = `${base}/sync/push`;
  const tooLarge = (limit: string) => (): never => {
    throw new ServiceError('PAYLOAD_TOO_LARGE', `request body is larger than ${limit}`);
  };
  const pushLimit = limitBody(5 * 1024 * 1024, tooLarge('5 MB; push fewer mutations at a time'));
  const generalLimit = limitBody(config.BODY_LIMIT_BYTES, tooLarge(`${config.BODY_LIMIT_BYTES} bytes`));
  // Uploads: a 10 MB file plus room for the multipart envelope (the file's own limit is checked exactly by the service).
  const uploadPath = `${base}/uploads`;
  const uploadLimit = limitBody(10 * 1024 * 1024 + 64 * 1024, tooLarge('10 MB per file'));
  app.use(`${base}/*`, (c, next) =>
    c.req.path === pushPath
      ? pushLimit(c, next)
      : c.req.path === uploadPath && c.req.method === 'POST'
        ? uploadLimit(c, next)
        : generalLimit(c, next),
  );

  app.use(`${base}/*`, refuseNulInUrl);

  app.route('/', healthRouter(ping, deps));
  app.route('/', metricsRouter(deps));
  app.route('/', browserApps(config));

  const api = createRouter();
  registerDocumentComponents(api);
  api.route('/', authRouter);
  api.route('/', accountsRouter);
  api.route('/', metaRouter);
  api.route('/', inventoryRouter);
  api.route('/', storesRouter);
  api.route('/', staffRouter);
  api.route('/', customersRouter);
  api.route('/', creditsRouter);
  api.route('/', suppliersRouter);
  api.route('/', expensesRouter);
  api.route('/', shiftsRouter);
  api.route('/', posRouter);
  api.route('/', pharmacyRouter);
  api.route('/', notificationsRouter);
  api.route('/', notebookRouter);
  api.route('/', uploadsRouter);
  api.route('/', reviewsRouter);
  api.route('/', pullRouter);
  api.route('/', pushRouter);
  api.route('/', reportsRouter);
  api.route('/', analyticsRouter);
  api.route('/', aiRouter);
  api.route('/', smsRouter);
  api.route('/', billingRouter);
  api.route('/', paymentsRouter);
  api.route('/', fiscalRouter);
  api.route('/', adminRouter(ping));
  documentRealtime(api);

  const openapi = api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Duka point-of-sale API',
      version: API_VERSION,
      contact: { name: 'Duka' },
      description:
        'Offline-first point of sale for small shops in Tanzania. Every business answer uses the envelope `{ success, message, data, errors, meta }`. ' +
        'An error answers in Swahili when the request sends `Accept-Language: sw` (English otherwise; `Content-Language` says which).',
    },
    // Absolute, so that a client generated from the document has a usable default server.
    servers: [{ url: `${publicOrigin(config)}${base}` }],
    tags: TAGS.map((tag) => ({ ...tag })),
  });
  api.get('/openapi.json', (c) => c.json(openapi));
  api.route('/', docsRouter(base));
  app.route(base, api);

  const allowedOn = methodsByPath(app.routes);
  app.notFound((c) => {
    const allowed = allowedOn(c.req.path);
    // No route there, or one that takes this method and found nothing (a handler's own 404).
    if (allowed.length === 0 || allowed.includes(c.req.method))
      return handleError(new ServiceError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`), c);
    c.header('Allow', allowed.join(', '));
    return handleError(
      new ServiceError('METHOD_NOT_ALLOWED', `${c.req.path} does not take ${c.req.method}; it takes ${allowed.join(', ')}`),
      c,
    );
  });
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
