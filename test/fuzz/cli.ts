/**
 * `npm run fuzz -- --seed N [--requests K] [--db sqlite|postgres|both]`: the fuzz run of test/api/fuzz.test.ts
 * with another seed and size. It runs through vitest, whose setup starts the embedded Postgres and
 * whose test app is the one every test uses; failures are printed as they come, with the seed, the
 * request and the answer, and the run exits 1.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    requests: { type: 'string', default: '5000' },
    db: { type: 'string', default: 'sqlite' },
  },
});
for (const [name, v] of [
  ['seed', values.seed],
  ['requests', values.requests],
] as const) {
  if (!/^\d+$/.test(v!)) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
}
if (!['sqlite', 'postgres', 'both'].includes(values.db!)) {
  console.error('--db must be sqlite, postgres or both');
  process.exit(2);
}
const projects = values.db === 'both' ? ['--project', 'sqlite', '--project', 'postgres'] : ['--project', values.db!];
const run = spawnSync('npx', ['vitest', 'run', ...projects, 'test/api/fuzz.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: values.seed, FUZZ_REQUESTS: values.requests },
});
process.exit(run.status ?? 1);
