/**
 * `npm run tenant-scope [-- vitest args]`: runs tests (all of them, or those named) with the
 * tenant-scope check on (issue 36) and lists every place in the server whose statement on a tenant
 * table did not name its organisation, most frequent first, and the reads marked as crossing
 * organisations by reason. Exits 1 when any unnamed statement was found.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScopeFinding } from '../../server/src/db/tenant-scope-check.js';

const file = path.join(mkdtempSync(path.join(tmpdir(), 'duka-scope-')), 'findings.jsonl');
writeFileSync(file, '');
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DUKA_TENANT_SCOPE: file },
});
const findings = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as ScopeFinding & { at: string });

const tally = (list: typeof findings, key: (f: (typeof findings)[number]) => string) => {
  const counts = new Map<string, number>();
  for (const f of list) counts.set(key(f), (counts.get(key(f)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
};
const unnamed = findings.filter((f) => f.kind === 'unnamed');
const places = tally(unnamed, (f) => `${f.statement} ${f.table} at ${f.at.replace(/:\d+\)?$/, '')}`);
console.log(`\nStatements on a tenant table without its organisation: ${unnamed.length} in ${places.length} places`);
for (const [place, n] of places) console.log(`${String(n).padStart(6)}  ${place}`);
console.log('\nBy table:');
for (const [table, n] of tally(unnamed, (f) => f.table)) console.log(`${String(n).padStart(6)}  ${table}`);
console.log('\nMarked as crossing organisations:');
for (const [reason, n] of tally(
  findings.filter((f) => f.kind === 'cross-org'),
  (f) => `${f.reason}: ${f.table}`,
))
  console.log(`${String(n).padStart(6)}  ${reason}`);
process.exit(unnamed.length > 0 || run.status !== 0 ? 1 : 0);
