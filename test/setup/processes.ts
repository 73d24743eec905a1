/** Real processes for the tests that need them (the server's or the agent's entry point on a port of its own). */
import { spawn } from 'node:child_process';
import path from 'node:path';
export { freePort } from './free-port.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Run `script` under tsx from the repository's root with only `env` (plus PATH and HOME), its output kept. */
export function startScript(script: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out, errors: () => err };
}
