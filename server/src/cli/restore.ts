/**
 * `npm run restore -- <backup>`: put a backup (a folder written by `npm run backup`, or a bare
 * SQLite file) back as the embedded database. Refuses while a server runs on DATA_DIR, and checks
 * the backup's integrity before touching anything; what it replaces is kept aside, not deleted.
 */
import { BackupError, restoreBackup } from '../db/backup.js';
import { ConfigError, loadConfig } from '../env.js';

try {
  const source = process.argv[2];
  if (!source) throw new BackupError('usage: npm run restore -- <backup folder or .db file>');
  const config = loadConfig();
  if (config.DATABASE_URL) throw new BackupError('DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README, Backups)');
  const r = await restoreBackup(config.DATA_DIR, source, Date.now());
  console.log(`restored ${source} into ${config.DATA_DIR}${r.keptAt ? `; the replaced database is kept in ${r.keptAt}` : ''}. Start the server: tills will send again what they sold since the backup.`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
