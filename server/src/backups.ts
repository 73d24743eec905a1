/**
 * The server's side of embedded-SQLite backups (db/backup.ts): a pid file that `npm run restore`
 * checks so it never swaps the database under a running server, scheduled backups, and the
 * notification a restore asked for. On Postgres none of this runs: its own tools back it up
 * (README, Backups).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import { clearRestoredNote, PID_FILE, pruneBackups, readRestoredNote, takeBackup } from './db/backup.js';
import { backupDir, type Config } from './env.js';
import { notifyRestored } from './modules/notifications/services/restore-notice.js';

export interface BackupSchedule {
  stop(): void;
}

export async function startBackups(config: Config, deps: AppDeps, log: Logger): Promise<BackupSchedule> {
  if (config.DATABASE_URL) return { stop() {} };
  const pidFile = path.join(config.DATA_DIR, PID_FILE);
  writeFileSync(pidFile, `${process.pid}\n`);

  const note = readRestoredNote(config.DATA_DIR);
  if (note) {
    const stores = await notifyRestored(deps, note.taken_at);
    await clearRestoredNote(config.DATA_DIR);
    log.warn({ backup: note.backup, taken_at: new Date(note.taken_at).toISOString(), stores }, 'started on a restored backup; every store was notified');
  }

  const dir = backupDir(config);
  // A failing backup counts as a stuck job (metrics, readiness): a shop without a fresh copy should page someone.
  const run = () =>
    deps.jobs.run('backup', async () => {
      const b = await takeBackup(config.DATA_DIR, dir, Date.now());
      const pruned = await pruneBackups(dir, config.BACKUP_KEEP);
      log.info({ backup: b.dir, bytes: b.bytes, pruned: pruned.length }, 'backup written');
    });
  const timer = config.BACKUP_EVERY > 0 ? setInterval(() => void run(), config.BACKUP_EVERY * 60_000) : null;
  timer?.unref();
  return {
    stop() {
      if (timer) clearInterval(timer);
      rmSync(pidFile, { force: true });
    },
  };
}
