/**
 * The power-cut shim (powerloss.c), compiled for the test that preloads it into a server process.
 * It needs a C compiler: `.ci/run` installs Debian's gcc when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE = path.join(import.meta.dirname, 'powerloss.c');

/** Builds the shim into `dir`; answers its path, for LD_PRELOAD. */
export function buildPowerLossShim(dir: string): string {
  const out = path.join(dir, 'powerloss.so');
  if (!existsSync(out)) execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-o', out, SOURCE, '-ldl', '-lpthread'], { stdio: 'pipe' });
  return out;
}

/** Cuts the power of every process preloaded with the shim and watching `dir` (within a millisecond or so). */
export function cutPower(dir: string) {
  writeFileSync(path.join(dir, 'powercut'), '');
}
