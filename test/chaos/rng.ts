/** A seeded random source (xoroshiro128+ from pure-rand), so a chaos run can be replayed by its seed. */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export class Rng {
  private readonly gen;
  constructor(seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return uniformInt(this.gen, min, max);
  }
  chance(p: number): boolean {
    return p > 0 && uniformFloat64(this.gen) < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  /** One of `weights`' keys, with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let r = uniformFloat64(this.gen) * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((r -= w) < 0) return k;
    return entries.at(-1)![0];
  }
}
