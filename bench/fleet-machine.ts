/**
 * The fleet's server as the whole machine runs it (issue 53): BENCH_FLEET_PROCESSES (1) server
 * processes. One is the bench server as `npm start` runs it, tills straight at it; more (PostgreSQL
 * only: SQLite has one writer) are instances of the scale-out set-up (docs/scale-out.md) on the same
 * database, behind nginx (round robin, websockets upgraded), their realtime crossing instances by
 * LISTEN/NOTIFY. The server CPU counted is every instance's; nginx's (its worker) is not counted.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LoadBalancer, startNginx } from '../test/setup/nginx.js';
import { type BenchServer, freePort, startBenchServer, startProcess, stopProcess } from './lib.js';

export interface FleetServer extends BenchServer {
  /** Every server process. */
  pids: number[];
}

export const fleetProcesses = () => Math.max(1, Number(process.env.BENCH_FLEET_PROCESSES ?? 1));

export async function startFleetServer(database: string, extraEnv: Record<string, string>, processes: number): Promise<FleetServer> {
  if (processes > 1 && database !== 'postgres')
    throw new Error(`BENCH_FLEET_PROCESSES=${processes} needs --db postgres: SQLite has one writer process`);
  const first = await startBenchServer(database, extraEnv);
  const more: Array<{ child: ChildProcess; dataDir: string }> = [];
  let balancer: LoadBalancer | null = null;
  try {
    const ports = [Number(new URL(first.base).port)];
    for (let i = 1; i < processes; i++) {
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'duka-bench-instance-'));
      const child = await startProcess(
        'server/src/index.ts',
        { ...first.env, PORT: String(port), DATA_DIR: dataDir },
        `http://127.0.0.1:${port}/health/ready`,
      );
      more.push({ child, dataDir });
      ports.push(port);
    }
    if (processes > 1) balancer = await startNginx(ports);
  } catch (e) {
    await stopAll();
    throw e;
  }
  async function stopAll() {
    await balancer?.stop();
    for (const m of more) {
      await stopProcess(m.child);
      rmSync(m.dataDir, { recursive: true, force: true });
    }
    await first.stop();
  }
  return {
    ...first,
    base: balancer?.url ?? first.base,
    pids: [first.process.pid!, ...more.map((m) => m.child.pid!)],
    stop: stopAll,
  };
}
