/** `npm run migrate`: bring the configured database to the latest schema. */
import { openDatabase } from '../boot.js';
import { ConfigError, loadConfig } from '../env.js';
import { createLogger } from '../lib/logger.js';

try {
  const config = loadConfig();
  const handle = await openDatabase(config, createLogger('info'));
  await handle.close();
  console.log(`database is up to date (${handle.dialect})`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `migration failed: ${(err as Error).message}`);
  process.exit(1);
}
