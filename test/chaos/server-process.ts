/** The server as `npm start` runs it, in its own process, that the chaos run can SIGKILL and start again on the same data. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './actors.js';
import type { Route } from './proxy.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export class ServerProcess {
  private child: ChildProcess | null = null;
  private log = '';
  kills = 0;
  /** Transactions the server ran again after losing a Postgres deadlock (its warning lines). */
  deadlocks = 0;
  starts = 0;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Start it and wait until it answers its readiness probe. */
  async start(timeoutMs = 60_000): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'server/src/index.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(this.port), LOG_LEVEL: 'warn', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      let partial = '';
      stream.on('data', (d: Buffer) => {
        this.log = (this.log + d.toString()).slice(-20_000);
        const lines = (partial + d.toString()).split('\n');
        partial = lines.pop()!;
        this.deadlocks += lines.filter((l) => l.includes('transaction retried after a deadlock')).length;
      });
    }
    this.starts++;
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`the server exited with ${this.child.exitCode}:\n${this.log}`);
      const ok = await fetch(`${this.url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > until) throw new Error(`the server did not become ready:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Pull the plug: SIGKILL, no graceful shutdown. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.kills++;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  output(): string {
    return this.log;
  }
}

/**
 * The run's servers: one, or several instances on one PostgreSQL database as behind a load
 * balancer (each with its own data directory, all with the same JWT secret). A crash is rolling:
 * each server in turn is SIGKILLed and started again while the others keep serving.
 */
export class ServerFleet {
  private constructor(readonly servers: ServerProcess[]) {}

  static async create(count: number, dataDir: (i: number) => string, env: Record<string, string>): Promise<ServerFleet> {
    if (count > 1 && !env.DATABASE_URL) throw new Error('several servers need one PostgreSQL database (SQLite has one process)');
    const servers: ServerProcess[] = [];
    for (let i = 0; i < count; i++) servers.push(new ServerProcess(await freePort(), { ...env, DATA_DIR: dataDir(i) }));
    return new ServerFleet(servers);
  }

  get urls(): string[] {
    return this.servers.map((s) => `${s.url}/api/v1`);
  }

  /** One after the other: instances starting together would race for the first migration. */
  async start(): Promise<void> {
    for (const s of this.servers) await s.start();
  }

  async crash(pause: () => number): Promise<void> {
    for (const s of this.servers) {
      await s.kill();
      await new Promise((r) => setTimeout(r, pause()));
      await s.start();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop().catch(() => {})));
  }

  output(): string {
    return this.servers.map((s, i) => `server ${i + 1}:\n${s.output().slice(-3000)}`).join('\n');
  }
}

/**
 * A store's tills in turn: pinned to server 1, …, pinned to server n, then one behind the load
 * balancer (any server: the proxy's own pick per request, or a real `balancer`); a single server
 * takes every till. `nth` counts within the store (the pharmacy starts at its balanced till, so
 * even a small one has a till on each side).
 */
export function routeOf(nth: number, ports: number[], balancer?: number): number[] {
  if (ports.length === 1) return ports;
  const k = nth % (ports.length + 1);
  return k < ports.length ? [ports[k]!] : balancer ? [balancer] : ports;
}

/**
 * With several servers, each store's tills reached every server, and each till the proxy balanced
 * switched between them (a real balancer's picks are its own, unseen here).
 */
export function spread(tills: Array<{ name: string; route: Route }>, ports: number[], balancer?: number): string[] {
  if (ports.length === 1) return [];
  const failures: string[] = [];
  for (const store of ['till', 'pharmacy till']) {
    const own = tills.filter((t) => t.name.startsWith(`${store} `));
    const throughBalancer = balancer !== undefined && own.some((t) => t.route.connections.get(balancer));
    for (const [i, port] of ports.entries()) {
      if (!throughBalancer && !own.some((t) => t.route.connections.get(port))) failures.push(`chaos: no ${store} reached server ${i + 1}`);
    }
  }
  for (const t of tills.filter((x) => x.route.targets.length > 1)) {
    if (t.route.switches === 0) failures.push(`chaos: ${t.name}, behind the load balancer, never switched server`);
  }
  return failures;
}
