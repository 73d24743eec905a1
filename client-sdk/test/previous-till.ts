/**
 * The till SDK as it was before issue 51 (units, packs, scale labels, split tender, sync protocol
 * 2), built from git into a temporary folder, never into the repository: a test runs it against
 * today's server to prove an old till keeps working. Built once per machine (the folder is kept,
 * named by the commit): `git archive` of shared/ and client-sdk/, transpiled with the repository's
 * own TypeScript (no type check: that commit's types were checked when it was made), its packages
 * linked from this repository's node_modules, `@duka/shared` to its own shared/. The folder is named
 * by the checkout too, and built again when its links no longer resolve: a copy built from a
 * checkout since deleted pointed at node_modules that were gone.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** main just before issue 51's first commit (a4876be, the shared units rule). */
export const PREVIOUS_TILL_COMMIT = 'c1a2505614092f63f174e309716a436cbaa2f5ad';

const ROOT = path.resolve(import.meta.dirname, '../..');

function build(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules/@duka'), { recursive: true });
  const archive = execFileSync('git', ['archive', PREVIOUS_TILL_COMMIT, 'shared', 'client-sdk', 'tsconfig.json', 'package.json'], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  for (const name of readdirSync(path.join(ROOT, 'node_modules')))
    if (name !== '@duka') symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  // Relative, so the folder can be moved once built.
  symlinkSync('../../shared', path.join(dir, 'node_modules/@duka/shared'));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const flags = ['--noCheck', '--declaration', 'false', '--declarationMap', 'false', '--composite', 'false', '--sourceMap', 'false'];
  for (const pkg of ['shared', 'client-sdk'])
    execFileSync(process.execPath, [tsc, '-p', `${pkg}/tsconfig.build.json`, ...flags], { cwd: dir });
  writeFileSync(path.join(dir, 'built'), PREVIOUS_TILL_COMMIT);
}

/** Whether the copy's packages still resolve (`existsSync` follows the link: false when its target is gone). */
const linked = (dir: string) => existsSync(path.join(dir, 'node_modules/zod/package.json'));

/** The previous till's Node entry (`@duka/client-sdk` as it was), building it first when this machine has not. */
export async function previousTill(): Promise<typeof import('@duka/client-sdk')> {
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 8);
  const dir = path.join(tmpdir(), `duka-previous-till-${PREVIOUS_TILL_COMMIT.slice(0, 12)}-${checkout}`);
  if (!existsSync(path.join(dir, 'built')) || !linked(dir)) {
    // Built aside and moved in whole: two test runs building at once leave one complete copy.
    const aside = `${dir}.${process.pid}`;
    build(aside);
    if (existsSync(path.join(dir, 'built')) && !linked(dir)) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(aside, dir);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
  }
  return import(path.join(dir, 'client-sdk/dist/node.js'));
}
