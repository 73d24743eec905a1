/**
 * Product search rows (issue 39): the catalogue of 50k products the http group seeds, searched by 8
 * connections, each run 3 times (the target must hold in all three). What a person types into a
 * back office's product search, sent in turn on every connection:
 * - `sabuni 123`: a name and a number (14 matches);
 * - `SKU-4711`: a code (11);
 * - `paracetamol`: a medicine's generic name (100 of the 1,000 medicines);
 * - `ari 1`: a fragment inside a word ("Sukari 1…", about 1,400);
 * - `unga`: a word in 1 product of 8 (6,250): the broadest a real catalogue's word goes, a full
 *   page and a count of thousands.
 * A term of 2 letters (`su`, 6,250 matches) is a row of its own: no trigram index takes fewer than 3
 * letters (SQLite's FTS5 trigram, pg_trgm), so since issue 53 (migration 0050) it finds the products
 * with a word starting with it, from a words index (it used to read every product of the organisation).
 */
import autocannon from 'autocannon';
import { cpuMs, type Measured, median, type Row } from './lib.js';

export const SEARCH_MIX = ['sabuni 123', 'SKU-4711', 'paracetamol', 'ari 1', 'unga'];
const SHORT = ['su'];
const RUNS = 3;
const TARGET_P99 = 20;

/** The generic names the seeded catalogue's medicines (every 50th product, none of those the sale rows sell) take in turn. */
export const BENCH_GENERICS = [
  'Paracetamol',
  'Amoxicillin',
  'Ibuprofen',
  'Metformin',
  'Artemether',
  'Ciprofloxacin',
  'Omeprazole',
  'Cetirizine',
  'Albendazole',
  'Doxycycline',
];

const path = (term: string) => `/api/v1/inventory/products?search=${encodeURIComponent(term)}`;

async function run(base: string, headers: Record<string, string>, terms: string[], seconds: number, pid: number | undefined) {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const result = await autocannon({
    url: base,
    connections: 8,
    duration: seconds,
    requests: terms.map((t) => ({ method: 'GET' as const, path: path(t), headers })),
  });
  const done = result.requests.total;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuMs: pid && done ? Math.round(((cpuMs(pid) - cpuBefore) / done) * 100) / 100 : undefined,
  };
}

/**
 * Each term sent alone, one at a time, 3 times: the median of the statements it ran and of their
 * time in the server (x-db-ms, x-db-wait-ms), which a loaded machine's queueing inflates less than p99.
 */
async function probe(base: string, headers: Record<string, string>, terms: string[]) {
  const statements: number[] = [];
  const ms: number[] = [];
  const waits: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (const term of terms) {
      const res = await fetch(`${base}${path(term)}`, { headers });
      if (!res.ok) throw new Error(`search probe answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      statements.push(Number(res.headers.get('x-db-statements') ?? NaN));
      ms.push(Number(res.headers.get('x-db-ms') ?? NaN));
      waits.push(Number(res.headers.get('x-db-wait-ms') ?? NaN));
    }
  }
  return { statements: median(statements), ms: median(ms), waitMs: median(waits) };
}

/** `RUNS` runs of `terms`: the median run's rates, the slowest p99, each run's p99 in the scenario. */
async function rowOf(base: string, headers: Record<string, string>, terms: string[], seconds: number, pid?: number) {
  const alone = await probe(base, headers, terms);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run(base, headers, terms, seconds, pid));
  const m: Measured = {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    db: { cpuMs: median(runs.map((r) => r.cpuMs ?? NaN)), ms: alone.ms, waitMs: alone.waitMs },
  };
  return {
    m,
    statements: alone.statements,
    p99s: runs.map((r) => r.p99).join(' / '),
    met: runs.every((r) => r.p99 <= TARGET_P99 && r.errors === 0),
  };
}

export async function searchBenchmarks(base: string, token: string, database: string, seconds: number, pid?: number): Promise<Row[]> {
  const headers = { authorization: `Bearer ${token}` };
  const mix = await rowOf(base, headers, SEARCH_MIX, seconds, pid);
  const short = await rowOf(base, headers, SHORT, seconds, pid);
  return [
    {
      scenario: `GET /inventory/products?search= (50k products), 5 terms in turn, 8 conn; p99 of ${RUNS} runs: ${mix.p99s}`,
      database,
      m: mix.m,
      target: `p99 <= ${TARGET_P99} ms in all ${RUNS}`,
      met: mix.met,
      statements: mix.statements,
    },
    {
      scenario: `the same, a 2-letter term (a word's start, words index); p99 of ${RUNS} runs: ${short.p99s}`,
      database,
      m: short.m,
      target: `p99 <= ${TARGET_P99} ms in all ${RUNS}`,
      met: short.met,
      statements: short.statements,
    },
  ];
}
