/** The soak's failure rules on synthetic series: each catches what it is there for, and a healthy run passes. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  driftRule,
  judge,
  lagRule,
  memoryRule,
  percentile,
  queueRule,
  type Sample,
  slopePerMinute,
  type SoakSeries,
} from './rules.js';

const MIN = 60_000;
/** One sample every `everyMs` over `durationMs`, valued `f(t)`. */
const series = (durationMs: number, everyMs: number, f: (t: number, i: number) => number): Sample[] =>
  Array.from({ length: Math.floor(durationMs / everyMs) }, (_, i) => ({ t: i * everyMs, value: f(i * everyMs, i) }));
/** A latency series of steady noise: 20-40 ms with a 90 ms outlier every 50th sample. */
const steady = (durationMs: number) => series(durationMs, 250, (_t, i) => (i % 50 === 49 ? 90 : 20 + (i % 21)));

function healthy(durationMs = 30 * MIN): SoakSeries {
  return {
    durationMs,
    // A garbage-collector sawtooth of ±30 MB around a flat 300 MB after a warm-up climb over the first fifth.
    rssMb: series(durationMs, 5_000, (t, i) => Math.min(300, 150 + (750 * t) / durationMs) + (i % 12) * 5 - 30),
    latencies: { push: steady(durationMs), sale: steady(durationMs) },
    lagMaxMs: series(durationMs, 5_000, (_t, i) => 10 + (i % 7) * 15),
    queues: [
      {
        till: 'till 1',
        samples: series(durationMs, 1_000, (_t, i) => (i % 10 < 3 ? 2 : 0)).map((p, i) => ({
          t: p.t,
          pending: p.value,
          acked: Math.floor(i / 10) * 2,
          online: true,
        })),
      },
    ],
  };
}

describe('soak rules: the arithmetic', () => {
  it('slope per minute is the least-squares line, percentile the nearest rank', () => {
    expect(
      slopePerMinute([
        { t: 0, value: 100 },
        { t: MIN, value: 103 },
        { t: 2 * MIN, value: 106 },
      ]),
    ).toBeCloseTo(3, 10);
    expect(
      slopePerMinute([
        { t: 0, value: 1 },
        { t: MIN, value: 5 },
        { t: 2 * MIN, value: 1 },
      ]),
    ).toBeCloseTo(0, 10);
    expect(slopePerMinute([{ t: 0, value: 1 }])).toBe(0);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBeNaN();
  });
});

describe('soak rules: a healthy run passes', () => {
  it('a flat, noisy 30-minute run and a flat 1-minute run', () => {
    expect(judge(healthy())).toEqual([]);
    expect(judge(healthy(MIN), { ...DEFAULT_LIMITS, stuckMs: 20_000 })).toEqual([]);
  });
});

describe('soak rules: each failure is caught', () => {
  it('memory that keeps growing (3 MB a minute under the same sawtooth), but not warm-up growth alone', () => {
    const run = healthy();
    run.rssMb = series(run.durationMs, 5_000, (t, i) => 300 + (3 * t) / MIN + (i % 12) * 5 - 30);
    expect(memoryRule(run, DEFAULT_LIMITS).join()).toMatch(
      /^memory grows without bound: server RSS rose 3(\.\d+)? MB a minute over the last two thirds/,
    );
    // Growth confined to the first third (warm-up) is not a leak.
    run.rssMb = series(run.durationMs, 5_000, (t) => (t < 10 * MIN ? 100 + (20 * t) / MIN : 300));
    expect(memoryRule(run, DEFAULT_LIMITS)).toEqual([]);
    // A steep slope that adds up to little (a short run's noise) is not a leak either.
    expect(memoryRule({ durationMs: MIN, rssMb: series(MIN, 5_000, (t) => 200 + (20 * t) / MIN) }, DEFAULT_LIMITS)).toEqual([]);
    expect(memoryRule({ durationMs: MIN, rssMb: [] }, DEFAULT_LIMITS)).toEqual([
      'memory: only 0 RSS samples in the last two thirds of the run, too few to judge',
    ]);
  });

  it('a p99 that drifts upward (the adjust drift: from about 40 ms to 300), and a series too thin to judge', () => {
    const D = 30 * MIN;
    const drifting = series(D, 250, (t, i) => (20 + (i % 21)) * (1 + (6 * t) / D));
    expect(driftRule('push', drifting, D, DEFAULT_LIMITS)).toEqual([
      expect.stringMatching(/^push p99 drifted upward: \d+(\.\d)? ms in the first third, \d+(\.\d)? ms in the last/),
    ]);
    expect(judge({ ...healthy(), latencies: { push: drifting, sale: steady(D) } })).toHaveLength(1);
    // A warm-up as slow as the drift (the first minute's syncs) does not hide it: the middle third is the baseline.
    const warmThenDrift = series(D, 250, (t, i) => (t < D / 10 ? 400 : t >= (2 * D) / 3 ? 300 : 20 + (i % 21)));
    expect(driftRule('push', warmThenDrift, D, DEFAULT_LIMITS)).toEqual([
      'push p99 drifted upward: 40 ms in the middle third, 300 ms in the last (above 2× and 50 ms more)',
    ]);
    // Doubling from 5 to 12 ms is within the slack: a noisy machine, not a drift.
    expect(
      driftRule(
        'sale',
        series(D, 250, (t) => (t < D / 2 ? 5 : 12)),
        D,
        DEFAULT_LIMITS,
      ),
    ).toEqual([]);
    // No pushes at all in the last third: that cannot pass for want of evidence.
    expect(
      driftRule(
        'push',
        steady(D).filter((p) => p.t < D / 2),
        D,
        DEFAULT_LIMITS,
      ),
    ).toEqual(['push p99: 2400 samples in the first third and 0 in the last, fewer than the 10 needed to judge drift']);
    // Too few page views in a small run leave the owners unjudged; too few sales never do.
    expect(driftRule('owner', steady(D).slice(0, 5), D, DEFAULT_LIMITS, false)).toEqual([]);
    expect(judge({ ...healthy(), latencies: { push: steady(D), sale: steady(D).slice(0, 5), owner: steady(D).slice(0, 5) } })).toEqual([
      'sale p99: 5 samples in the first third and 0 in the last, fewer than the 10 needed to judge drift',
    ]);
    // A thin series (a short run's page views) is judged by its p90: one slow view is not a drift, a slow tenth is.
    const thin = (slow: number) => [
      ...series(D / 3, D / 90, () => 40),
      ...series(D / 3, D / 90, (_t, i) => (i < slow ? 400 : 40)).map((p) => ({ t: p.t + (2 * D) / 3, value: p.value })),
    ];
    expect(driftRule('owner', thin(1), D, DEFAULT_LIMITS)).toEqual([]);
    expect(driftRule('owner', thin(4), D, DEFAULT_LIMITS)).toEqual([
      'owner p90 drifted upward: 40 ms in the first third, 400 ms in the last (above 2× and 50 ms more)',
    ]);
    // `perThird` sales of 14 ms in the first and last thirds, `slow` of the last's at 385 ms.
    const stalled = (d: number, perThird: number, slow: number) => [
      ...series(d / 3, d / 3 / perThird, () => 14),
      ...series(d / 3, d / 3 / perThird, (_t, i) => (i % 7 === 0 && i / 7 < slow ? 385 : 14)).map((p) => ({
        t: p.t + (2 * d) / 3,
        value: p.value,
      })),
    ];
    // A minute's sales (150 a third): one or two stalls of the machine are not a drift, a slow tenth is.
    expect(stalled(MIN, 150, 0).filter((p) => p.t < MIN / 3)).toHaveLength(150);
    expect(driftRule('sale', stalled(MIN, 150, 2), MIN, DEFAULT_LIMITS)).toEqual([]);
    expect(driftRule('sale', stalled(MIN, 150, 16), MIN, DEFAULT_LIMITS)).toEqual([
      'sale p90 drifted upward: 14 ms in the first third, 385 ms in the last (above 2× and 50 ms more)',
    ]);
    // 500 a third: judged at p95.
    expect(driftRule('sale', stalled(D, 500, 10), D, DEFAULT_LIMITS)).toEqual([]);
    expect(driftRule('sale', stalled(D, 500, 40), D, DEFAULT_LIMITS)).toEqual([
      'sale p95 drifted upward: 14 ms in the first third, 385 ms in the last (above 2× and 50 ms more)',
    ]);
  });

  it('a queue that stops draining while online, but not one held by an outage, nor a busy one that keeps moving', () => {
    const samples = series(10 * MIN, 1_000, (t) => (t < 4 * MIN ? 0 : Math.floor(t / 1000) - 239)).map((p) => ({
      t: p.t,
      pending: p.value,
      acked: 0,
      online: true,
    }));
    expect(queueRule([{ till: 'till 7', samples }], DEFAULT_LIMITS)).toEqual([
      'till 7: its queue stopped draining: online with mutations queued and no push answered for 359 s (from 1 to 360 queued), more than 60 s',
    ]);
    // The same queue while the till was offline: it cannot drain, so it is not stuck.
    expect(queueRule([{ till: 'till 7', samples: samples.map((p) => ({ ...p, online: false })) }], DEFAULT_LIMITS)).toEqual([]);
    // Back online and draining within the minute: fine.
    const outage = series(5 * MIN, 1_000, (t) => (t >= MIN && t < 3 * MIN + 30_000 ? 5 : 0)).map((p) => ({
      t: p.t,
      pending: p.value,
      acked: p.t >= 3 * MIN + 30_000 ? 5 : 0,
      online: !(p.t >= MIN && p.t < 3 * MIN),
    }));
    expect(queueRule([{ till: 'till 8', samples: outage }], DEFAULT_LIMITS)).toEqual([]);
    // A sale every 6 s and a push as slow: one or two queued at every sample for ten minutes, each
    // acknowledged a few seconds later. Busy, not stuck.
    const busy = series(10 * MIN, 5_000, (_t, i) => 1 + (i % 2)).map((p, i) => ({
      t: p.t,
      pending: p.value,
      acked: Math.floor((i * 5) / 6),
      online: true,
    }));
    expect(queueRule([{ till: 'till 9', samples: busy }], DEFAULT_LIMITS)).toEqual([]);
    // The same till, its acknowledgements stopping at minute 4 while it still holds a sale.
    const stalled = busy.map((p) => ({ ...p, acked: Math.min(p.acked, 40) }));
    expect(queueRule([{ till: 'till 9', samples: stalled }], DEFAULT_LIMITS)).toEqual([
      expect.stringMatching(/^till 9: its queue stopped draining: online with mutations queued and no push answered for 3\d\d s/),
    ]);
  });

  it('an event loop that stalls', () => {
    expect(
      lagRule(
        [
          { t: 0, value: 40 },
          { t: 5_000, value: 3_500 },
          { t: 10_000, value: 60 },
        ],
        DEFAULT_LIMITS,
      ),
    ).toEqual(["the server's event loop stalled for 3500 ms (at 5 s), more than 2000 ms"]);
    expect(lagRule([{ t: 0, value: 40 }], DEFAULT_LIMITS)).toEqual([]);
  });
});
