/**
 * The soak's verdict on what it measured, as pure functions of the series (so a unit test can
 * feed them a leak, a drift or a stuck queue and see each caught): a list of what does not hold.
 *
 * - Memory grows without bound: the least-squares slope of the server's RSS over the last two
 *   thirds of the run (the first third is warm-up: JIT, caches, pools filling) is above
 *   `rssSlopeMbPerMin`, and over that window it adds up to more than `rssGrowthMb` (so a short
 *   run's garbage-collector sawtooth is not read as a leak).
 * - A p99 drifts upward: the p99 of a series' last third is above `p99Factor` times the first
 *   third's, and higher by more than `p99SlackMs` (milliseconds of noise a shared machine adds to
 *   a small figure). The first third holds the warm-up (every till's first syncs at once, code
 *   not yet optimised), which would hide a drift behind its own slowness: where the middle third
 *   is faster, it is the baseline instead. A third is judged at p99 from 1,000 samples, at p95
 *   from 200 (either way at least 10 samples lie above), else at p90: the p99 of a few hundred
 *   samples is their worst one or two, so a single stall of a shared machine (one fsync held up
 *   by the disk, as the one-minute soak of `npm test` met twice: a sale of 385 and one of 655 ms
 *   among 150) would read as a drift. A long soak's thirds hold thousands and are judged at p99;
 *   a short run's sales at p90 (a slow tenth is a drift, one slow sale is not); the message names
 *   the percentile. A required series (the tills' pushes and sales, the readiness probe) with
 *   fewer than `minSamples` in either third is itself a failure: a soak that stopped pushing in
 *   its last third must not pass for want of evidence. The owners' page views are paced by the
 *   run's size, so a small run's are left unjudged when too few.
 * - A till's queue stops draining: while its network was up, it held queued mutations at every
 *   sample, and the server answered none of its pushes, for longer than `stuckMs`. A busy till whose
 *   queue is never empty at the moment of a sample (a sale every few seconds, each push taking
 *   as long) is draining: its acknowledgements keep coming.
 * - The event loop stalls: any scrape saw a maximum event-loop delay above `maxLagMs`.
 */

export interface Sample {
  /** ms since the soak started selling. */
  t: number;
  value: number;
}

export interface QueueSample {
  t: number;
  pending: number;
  /** Pushes of this till the server had answered by then (cumulative): each moves the queue. */
  acked: number;
  /** The till's network was up. */
  online: boolean;
}

export interface SoakSeries {
  durationMs: number;
  /** Server resident memory, MB, per scrape. */
  rssMb: Sample[];
  /** Latencies in ms, one sample per observation, by name (push, sale, owner, health, …). */
  latencies: Record<string, Sample[]>;
  /** Largest event-loop delay (ms) since the previous scrape, per scrape. */
  lagMaxMs: Sample[];
  queues: Array<{ till: string; samples: QueueSample[] }>;
}

export interface Limits {
  rssSlopeMbPerMin: number;
  rssGrowthMb: number;
  p99Factor: number;
  p99SlackMs: number;
  /** Fewest samples a third of a latency series must hold to be judged. */
  minSamples: number;
  stuckMs: number;
  maxLagMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  rssSlopeMbPerMin: 2,
  rssGrowthMb: 48,
  p99Factor: 2,
  p99SlackMs: 50,
  minSamples: 10,
  stuckMs: 60_000,
  maxLagMs: 2_000,
};

/** Least-squares slope of `points`, in value units per minute (0 for fewer than 2 points). */
export function slopePerMinute(points: Sample[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.value, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.value - mv);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60_000;
}

/** The nearest-rank percentile `p` (0-100) of `values`; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function memoryRule(s: Pick<SoakSeries, 'durationMs' | 'rssMb'>, l: Limits): string[] {
  const from = s.durationMs / 3;
  const window = s.rssMb.filter((p) => p.t >= from);
  if (window.length < 3) return [`memory: only ${window.length} RSS samples in the last two thirds of the run, too few to judge`];
  const slope = slopePerMinute(window);
  const growth = (slope * (window.at(-1)!.t - window[0]!.t)) / 60_000;
  if (slope > l.rssSlopeMbPerMin && growth > l.rssGrowthMb) {
    return [
      `memory grows without bound: server RSS rose ${round(slope, 2)} MB a minute over the last two thirds (${round(growth)} MB; from ${round(window[0]!.value)} to ${round(window.at(-1)!.value)} MB), above ${l.rssSlopeMbPerMin} MB/min and ${l.rssGrowthMb} MB`,
    ];
  }
  return [];
}

/** Series whose absence is a failure (see above); others are judged only when there are enough samples. */
export const REQUIRED = ['push', 'sale', 'ready'];

export function driftRule(name: string, samples: Sample[], durationMs: number, l: Limits, required = true): string[] {
  const first = samples.filter((p) => p.t < durationMs / 3).map((p) => p.value);
  const middle = samples.filter((p) => p.t >= durationMs / 3 && p.t < (2 * durationMs) / 3).map((p) => p.value);
  const last = samples.filter((p) => p.t >= (2 * durationMs) / 3).map((p) => p.value);
  if (first.length < l.minSamples || last.length < l.minSamples) {
    if (!required) return [];
    return [
      `${name} p99: ${first.length} samples in the first third and ${last.length} in the last, fewer than the ${l.minSamples} needed to judge drift`,
    ];
  }
  const n = Math.min(first.length, last.length);
  const q = n >= 1000 ? 99 : n >= 200 ? 95 : 90;
  const early = percentile(first, q);
  const mid = middle.length >= l.minSamples ? percentile(middle, q) : Number.POSITIVE_INFINITY;
  const [a, which] = mid < early ? [mid, 'middle'] : [early, 'first'];
  const b = percentile(last, q);
  if (b > a * l.p99Factor && b - a > l.p99SlackMs) {
    return [
      `${name} p${q} drifted upward: ${round(a)} ms in the ${which} third, ${round(b)} ms in the last (above ${l.p99Factor}× and ${l.p99SlackMs} ms more)`,
    ];
  }
  return [];
}

export function queueRule(queues: SoakSeries['queues'], l: Limits): string[] {
  const failures: string[] = [];
  for (const q of queues) {
    let since: QueueSample | null = null;
    let worst: { from: QueueSample; to: QueueSample } | null = null;
    for (const p of q.samples) {
      if (!p.online || p.pending === 0 || (since && p.acked > since.acked)) {
        since = !p.online || p.pending === 0 ? null : p;
        continue;
      }
      since ??= p;
      if (p.t - since.t > l.stuckMs && (!worst || p.t - since.t > worst.to.t - worst.from.t)) worst = { from: since, to: p };
    }
    if (worst) {
      failures.push(
        `${q.till}: its queue stopped draining: online with mutations queued and no push answered for ${round((worst.to.t - worst.from.t) / 1000)} s (from ${worst.from.pending} to ${worst.to.pending} queued), more than ${l.stuckMs / 1000} s`,
      );
    }
  }
  return failures;
}

export function lagRule(lagMaxMs: Sample[], l: Limits): string[] {
  const worst = lagMaxMs.reduce<Sample | null>((w, p) => (!w || p.value > w.value ? p : w), null);
  if (worst && worst.value > l.maxLagMs)
    return [`the server's event loop stalled for ${round(worst.value)} ms (at ${round(worst.t / 1000)} s), more than ${l.maxLagMs} ms`];
  return [];
}

/** Every rule over the whole run. */
export function judge(s: SoakSeries, l: Limits = DEFAULT_LIMITS): string[] {
  return [
    ...memoryRule(s, l),
    ...Object.entries(s.latencies).flatMap(([name, samples]) => driftRule(name, samples, s.durationMs, l, REQUIRED.includes(name))),
    ...queueRule(s.queues, l),
    ...lagRule(s.lagMaxMs, l),
  ];
}
