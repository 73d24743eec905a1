/**
 * What the soak measures while it runs, and its per-minute rows: the server's own figures scraped
 * from GET /metrics on its METRICS_PORT (resident memory, event-loop delay, open handles,
 * websockets, the SQLite WAL), the tills' pools' samples (sales, sale and push latencies, queues),
 * the owners' request times and a readiness probe (`ready`) every second.
 */
import type { Sample, SoakSeries } from './rules.js';
import { percentile } from './rules.js';
import type { PoolSample } from './protocol.js';

/** The unlabelled series of a Prometheus text exposition, by name. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*) ([-+\deE.naNInf]+)$/.exec(line.trim());
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

export interface Scrape {
  t: number;
  rssMb: number;
  lagMaxMs: number;
  handles: number;
  websockets: number;
  walMb: number | null;
}

/** One scrape of GET /metrics; `sqlite` says whether the WAL gauge means anything (on Postgres it stays 0). */
export async function scrape(metricsUrl: string, t: number, sqlite: boolean): Promise<Scrape> {
  const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const m = parseMetrics(await res.text());
  const need = (name: string) => {
    const v = m.get(name);
    if (v === undefined) throw new Error(`GET /metrics has no ${name}`);
    return v;
  };
  return {
    t,
    rssMb: need('process_resident_memory_bytes') / 1_048_576,
    lagMaxMs: need('nodejs_eventloop_lag_max_seconds') * 1000,
    handles: need('nodejs_active_handles_total'),
    websockets: need('duka_websockets_open'),
    walMb: sqlite && m.has('duka_sqlite_wal_bytes') ? m.get('duka_sqlite_wal_bytes')! / 1_048_576 : null,
  };
}

/** Everything observed since selling started, times relative to it. */
export class Recorder {
  readonly scrapes: Scrape[] = [];
  readonly latencies: Record<'push' | 'sale' | 'owner' | 'ready', Sample[]> = { push: [], sale: [], owner: [], ready: [] };
  readonly sales: Sample[] = [];
  readonly queues = new Map<string, SoakSeries['queues'][number]['samples']>();
  /** Queued mutations across all tills, per pool sampling round. */
  readonly queued: Sample[] = [];

  constructor(readonly started: number) {}

  latency(name: keyof Recorder['latencies'], at: number, ms: number): void {
    this.latencies[name].push({ t: at - this.started, value: ms });
  }

  /** One sampling round of every pool, taken at `at`. */
  pools(at: number, samples: PoolSample[]): void {
    const t = at - this.started;
    let queued = 0;
    for (const s of samples) {
      this.sales.push({ t, value: s.sales });
      for (const [when, ms] of s.saleMs) this.latency('sale', when, ms);
      for (const [when, ms] of s.pushMs) this.latency('push', when, ms);
      for (const till of s.tills) {
        queued += till.pending;
        const list = this.queues.get(till.name) ?? [];
        list.push({ t, pending: till.pending, acked: till.acked, online: till.online });
        this.queues.set(till.name, list);
      }
    }
    this.queued.push({ t, value: queued });
  }

  /** What the rules judge: the selling time only (the tail while the last sales finish is left out). */
  series(durationMs: number): SoakSeries {
    const during = <T extends { t: number }>(list: T[]) => list.filter((s) => s.t <= durationMs);
    return {
      durationMs,
      rssMb: during(this.scrapes).map((s) => ({ t: s.t, value: s.rssMb })),
      latencies: Object.fromEntries(Object.entries(this.latencies).map(([k, v]) => [k, during(v)])),
      lagMaxMs: during(this.scrapes).map((s) => ({ t: s.t, value: s.lagMaxMs })),
      queues: [...this.queues].map(([till, samples]) => ({ till, samples: during(samples) })),
    };
  }

  /** The row of [from, to): rates and p99s over it, the server's state at its last scrape. */
  row(from: number, to: number): Row {
    const within = (s: { t: number }) => s.t >= from && s.t < to;
    const p99 = (name: keyof Recorder['latencies']) =>
      round(
        percentile(
          this.latencies[name].filter(within).map((s) => s.value),
          99,
        ),
      );
    const scrapes = this.scrapes.filter(within);
    const last = scrapes.at(-1);
    return {
      minute: Math.round((to / 60_000) * 100) / 100,
      'sales/s': round(this.sales.filter(within).reduce((n, s) => n + s.value, 0) / ((to - from) / 1000)),
      'push p99 ms': p99('push'),
      'sale p99 ms': p99('sale'),
      'owner p99 ms': p99('owner'),
      'ready p99 ms': p99('ready'),
      'RSS MB': last ? round(last.rssMb) : Number.NaN,
      'lag max ms': scrapes.length ? round(Math.max(...scrapes.map((s) => s.lagMaxMs))) : Number.NaN,
      handles: last?.handles ?? Number.NaN,
      websockets: last?.websockets ?? Number.NaN,
      queued: Math.max(0, ...this.queued.filter(within).map((s) => s.value)),
      ...(last?.walMb != null ? { 'WAL MB': round(last.walMb) } : {}),
    };
  }
}

export type Row = Record<string, number>;

const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : n);

export function formatRow(row: Row, header = false): string {
  const cells = Object.entries(row).map(([k, v]) => (header ? k : Number.isNaN(v) ? '-' : String(v)).padStart(Math.max(k.length, 6)));
  return `| ${cells.join(' | ')} |`;
}
