/**
 * `npx tsx bench/otp-send-timing.ts [database] [pairs]`: does `POST /auth/otp/send` take longer for
 * a registered phone than for one no account has (issue 49 item 15)? The server as `npm start` runs
 * it (a file-backed SQLite whose answers wait for the WAL's fsync, or PostgreSQL), over real HTTP;
 * `pairs` requests of each kind (default 150), interleaved and alternating which goes first, one at a
 * time as a prober sends them, each registered phone asked once so that its code is really sent.
 * Prints the median and the 10 %-trimmed mean of each kind and their difference. A measurement, not
 * a test: the enumeration test (test/auth/auth-enumeration.test.ts) is the gate.
 */
import { performance } from 'node:perf_hooks';
import { LOAD_RUN_LIMITS } from '../server/src/env.js';
import { median, registerOwner, startBenchServer } from './lib.js';

const database = process.argv[2] ?? 'sqlite';
const pairs = Number(process.argv[3] ?? 150);
const server = await startBenchServer(database, { ...LOAD_RUN_LIMITS, LOG_LEVEL: 'warn' });
try {
  const phone = (i: number, unknown: boolean) => `+2557${unknown ? 5 : 4}${String(1_000_000 + i).slice(1)}1`;
  for (let i = 0; i < pairs + 5; i++) await registerOwner(server.base, phone(i, false), `Otp ${i}`);
  const send = async (p: string) => {
    const started = performance.now();
    const res = await fetch(`${server.base}/api/v1/auth/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: p, purpose: 'login' }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`otp/send answered ${res.status}`);
    return performance.now() - started;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < pairs + 5; i++) {
    const first = i % 2 === 0;
    const a = first ? await send(phone(i, false)) : await send(phone(i, true));
    const b = first ? await send(phone(i, true)) : await send(phone(i, false));
    if (i < 5) continue; // warm-up
    known.push(first ? a : b);
    unknown.push(first ? b : a);
  }
  const trimmed = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    const cut = Math.floor(s.length / 10);
    const kept = s.slice(cut, s.length - cut);
    return kept.reduce((t, x) => t + x, 0) / kept.length;
  };
  const ms = (x: number) => x.toFixed(3);
  console.log(`${database}, ${pairs} pairs: registered median ${ms(median(known))} ms, trimmed mean ${ms(trimmed(known))} ms;`);
  console.log(`${' '.repeat(database.length)}  unknown    median ${ms(median(unknown))} ms, trimmed mean ${ms(trimmed(unknown))} ms;`);
  console.log(
    `  difference (registered - unknown): median ${ms(median(known) - median(unknown))} ms, trimmed mean ${ms(trimmed(known) - trimmed(unknown))} ms`,
  );
} finally {
  await server.stop();
}
