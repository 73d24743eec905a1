/** The server as `npm start` runs it, in its own process, that the chaos run can SIGKILL and start again on the same data. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export class ServerProcess {
  private child: ChildProcess | null = null;
  private log = '';
  kills = 0;
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
    const keep = (d: Buffer) => (this.log = (this.log + d.toString()).slice(-20_000));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.starts++;
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`the server exited with ${this.child.exitCode}:\n${this.log}`);
      const ok = await fetch(`${this.url}/health/ready`).then((r) => r.ok, () => false);
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
