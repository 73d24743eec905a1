/** A server program the tests run as a child process (PgBouncer, nginx): started, waited for on its port, stopped. */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';

export interface Daemon {
  /** Its process id (the benches read its CPU time and pin it to a core). */
  pid: number;
  /** Stop it with `signal` (its graceful one) and wait until it has exited. */
  stop(): Promise<void>;
}

/** Start `bin` and resolve once something listens on `port`; reject with its output if it exits first. */
export async function startDaemon(bin: string, args: string[], port: number, signal: NodeJS.Signals): Promise<Daemon> {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await waitForPort(port, () => (child.exitCode !== null ? `${bin} exited with ${child.exitCode}: ${out}` : null));
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** Wait until something listens on `port`; `failed` says why to stop waiting (the process died). */
export async function waitForPort(port: number, failed: () => string | null, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    const open = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
