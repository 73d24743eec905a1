/**
 * Tests import `@duka/shared` and `@duka/client-sdk` as built (`dist/`), so a run first brings the
 * build up to date: an edit to either package is tested, never a stale build. `tsc -b` skips what is
 * current (about a second when nothing changed).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'shared/tsconfig.build.json', 'client-sdk/tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
