/**
 * `npx tsx bench/units-push-cpu.ts [repeats] [sqlite|postgres]`: the server's CPU per push of 100
 * offline sales, whole / weighed / split tender (bench/units.ts' push rows, without the sale rows),
 * `repeats` times in turn. CPU time is far steadier than sales/s on a shared machine; with
 * BENCH_PROF=<dir> the server writes a V8 CPU profile there when it stops.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startBenchServer } from './lib.js';
import { registerTill, timePushes } from './push-load.js';
import { pushSales, seedUnitsShop } from './units.js';

const repeats = Number(process.argv[2] ?? 3);
const database = process.argv[3] ?? 'sqlite';
/** KINDS=split (or whole,split...): only those, to profile one kind. */
const kinds = (process.env.KINDS?.split(',') ?? ['whole', 'weighed', 'split']) as Array<'whole' | 'weighed' | 'split'>;
const server = await startBenchServer(database);
const { headers, pieces, kilos } = await seedUnitsShop(server.base, server.dbOpts);

/** CPU ms so far of each of the server's threads, by name (main, libuv pool, V8 helpers, the checkpoint worker). */
function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#');
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return out;
}

let tillNo = 0;
const figures: Record<string, number[]> = { whole: [], weighed: [], split: [] };
for (let r = 0; r < repeats; r++) {
  // In turn, the order reversed every other round: each push makes the next a little dearer (the database grows).
  for (const kind of r % 2 ? [...kinds].reverse() : kinds) {
    const tills = await Promise.all(
      Array.from({ length: 20 }, async (_, d) => ({
        id: await registerTill(server.base, headers, `Till ${++tillNo}`),
        headers,
        mutations: pushSales(kind, kind === 'weighed' ? kilos : pieces, d, `${kind[0]!.toUpperCase()}${tillNo}-`),
      })),
    );
    const before = threads(server.process.pid!);
    const m = await timePushes(server.base, tills, 100, server.process.pid);
    const after = threads(server.process.pid!);
    const pushes = tills.length * (tills[0]!.mutations.length / 100);
    const split = [...after].map(([k, v]) => `${k} ${((v - (before.get(k) ?? 0)) / pushes).toFixed(1)}`).filter((x) => !x.endsWith(' 0.0'));
    if (m.errors) throw new Error(`${m.errors} pushes of ${kind} failed`);
    figures[kind]!.push(m.db!.cpuMs!);
    console.log(`round ${r + 1} ${kind}: ${m.db!.cpuMs} ms CPU per push of 100, ${m.rps} sales/s; per thread: ${split.join(', ')}`);
  }
}
await server.stop();
for (const [kind, ms] of Object.entries(figures)) {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(`${kind}: ${ms.join(' / ')} (median ${sorted[Math.floor(sorted.length / 2)]}, ${sorted[0]}-${sorted.at(-1)})`);
}
