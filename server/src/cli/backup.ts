/**
 * `npm run backup`: one backup of the embedded SQLite database and its files now, into BACKUP_DIR,
 * while the server keeps running; old ones beyond BACKUP_KEEP are removed. Postgres is backed up
 * with its own tools (README, Backups).
 */
import { BackupError, pruneBackups, takeBackup } from '../db/backup.js';
import { backupDir, ConfigError, loadConfig } from '../env.js';

try {
  const config = loadConfig();
  if (config.DATABASE_URL) throw new BackupError('DATABASE_URL is set: back up PostgreSQL with pg_dump or base backups (see the README, Backups)');
  const dir = backupDir(config);
  const b = await takeBackup(config.DATA_DIR, dir, Date.now());
  const pruned = await pruneBackups(dir, config.BACKUP_KEEP);
  console.log(`backup written: ${b.dir} (${b.bytes} bytes of database)${pruned.length ? `; ${pruned.length} older removed` : ''}`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
