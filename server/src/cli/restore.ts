/**
 * `npm run restore -- <backup>`: put a backup (a folder written by `npm run backup`, a bare SQLite
 * `.db` file, or a pg_dump `.dump`) back as the database DATA_DIR or DATABASE_URL names. Refuses
 * while a server runs on it, and checks the backup before touching anything; what it replaces is
 * kept aside, not deleted. Then every store is notified.
 */
import { announceRestore, backupTarget } from '../backups.js';
import { BackupError, restoreBackup } from '../db/backup.js';
import { ConfigError, loadConfig } from '../env.js';
import { createLogger } from '../lib/logger.js';

try {
  const source = process.argv[2];
  if (!source) throw new BackupError('usage: npm run restore -- <backup folder, .db or .dump file>');
  const config = loadConfig();
  const r = await restoreBackup(backupTarget(config), source, Date.now());
  const stores = await announceRestore(config, createLogger('warn'), r.takenAt);
  console.log(
    `restored ${source}${r.keptAt ? `; the replaced database is kept in ${r.keptAt}` : ''}; ${stores} store(s) notified. ` +
      'Start the server: tills will send again what they sold since the backup.',
  );
} catch (err) {
  if (!(err instanceof BackupError || err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
