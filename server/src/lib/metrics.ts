/**
 * What an operator scrapes (GET /metrics, Prometheus text format, prom-client): requests by route
 * and status, sync traffic, websockets, conflicts, the outbox, background jobs, the database and
 * the process itself (memory, event-loop lag: prom-client's default collectors).
 *
 * Each app gets its own registry, so tests that build several apps in one process count apart.
 * Counters are bumped where things happen; gauges of state held elsewhere (sockets, the outbox,
 * the pool) are read when scraped, through the sources app.ts hands in.
 */
import type { Context } from 'hono';
import { routePath } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricSources {
  openSockets(): number;
  /** Outbox rows not yet delivered, by channel and status (`pending`, `failed`). */
  outbox(): Promise<Array<{ channel: string; status: string; count: number }>>;
  db(): { pool?: { total: number; idle: number; waiting: number }; walBytes?: number; readThreads?: number };
}

/** Buckets in seconds: a sale answers in milliseconds, a big push or report in seconds. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'duka_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'duka_http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly pushMutations = new Counter({
    name: 'duka_sync_push_mutations_total',
    help: 'Pushed mutations by result: applied, duplicate or rejected',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly pushDuration = new Histogram({
    name: 'duka_sync_push_duration_seconds',
    help: 'Time to apply one push batch',
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly syncRows = new Counter({
    name: 'duka_sync_rows_total',
    help: 'Rows sent to tills, by kind: pull or bootstrap',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly conflictsOpened = new Counter({
    name: 'duka_sync_conflicts_opened_total',
    help: 'Sync conflicts raised for an owner to look at',
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'duka_job_runs_total',
    help: 'Background job runs, by job',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  readonly jobFailures = new Counter({
    name: 'duka_job_failures_total',
    help: 'Background job runs that failed, by job',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    new Gauge({
      name: 'duka_websockets_open',
      help: 'Websockets open on this instance',
      registers,
      collect() {
        this.set(sources.openSockets());
      },
    });
    new Gauge({
      name: 'duka_outbox_messages',
      help: 'Messages not yet delivered, by channel and status (pending, failed)',
      labelNames: ['channel', 'status'] as const,
      registers,
      async collect() {
        this.reset();
        for (const r of await sources.outbox()) this.set({ channel: r.channel, status: r.status }, r.count);
      },
    });
    new Gauge({
      name: 'duka_db_pool_connections',
      help: 'PostgreSQL pool connections, by state: total, idle, waiting (clients queued for one)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = sources.db().pool;
        if (pool) for (const [state, n] of Object.entries(pool)) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'duka_sqlite_wal_bytes',
      help: 'Size of the SQLite write-ahead log',
      registers,
      collect() {
        const wal = sources.db().walBytes;
        if (wal !== undefined) this.set(wal);
      },
    });
    new Gauge({
      name: 'duka_sqlite_read_threads',
      help: 'SQLite read threads alive (db/read-pool.ts); below SQLITE_READ_THREADS while one is being replaced',
      registers,
      collect() {
        const n = sources.db().readThreads;
        if (n !== undefined) this.set(n);
      },
    });
  }

  private processMetrics = false;

  /**
   * Memory, CPU, handles and event-loop lag of this process. Started by the server at boot (lag is
   * sampled from then on), and at the latest by the first scrape; not per app built in a test.
   */
  startProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** One push batch answered: each mutation's result, and the conflicts its applied ones raised (a duplicate's were counted the first time). */
  observePush(results: ReadonlyArray<{ status: string; conflicts?: readonly unknown[] }>, seconds: number): void {
    this.pushDuration.observe(seconds);
    for (const r of results) {
      this.pushMutations.inc({ result: r.status });
      if (r.status === 'applied' && r.conflicts?.length) this.conflictsOpened.inc(r.conflicts.length);
    }
  }

  text(): Promise<string> {
    this.startProcessMetrics();
    return this.registry.metrics();
  }
}

/**
 * The route pattern that answered (`/api/v1/inventory/products/:id`), never the raw path: ids in
 * labels would make a time series per product. Requests no route took share one label.
 */
export function routeLabel(c: Context): string {
  const p = routePath(c);
  return p.endsWith('*') ? 'unmatched' : p;
}
