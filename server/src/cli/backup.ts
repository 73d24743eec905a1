/**
 * `npm run backup`: one backup now, into BACKUP_DIR, while the servers keep running: the embedded
 * SQLite database through SQLite's backup API, or PostgreSQL through pg_dump; the uploaded files
 * with it. Old ones beyond BACKUP_KEEP are removed.
 */
import { backupTarget } from '../backups.js';
import { BackupError, pruneBackups, takeBackup } from '../db/backup.js';
import { backupDir, ConfigError, loadConfig } from '../env.js';

try {
  const config = loadConfig();
  const dir = backupDir(config);
  const b = await takeBackup(backupTarget(config), dir, Date.now());
  const pruned = await pruneBackups(dir, config.BACKUP_KEEP);
  console.log(`backup written: ${b.dir} (${b.bytes} bytes of database)${pruned.length ? `; ${pruned.length} older removed` : ''}`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
