/**
 * The server's side of backups (db/backup.ts): the target a config points at, a pid file that
 * `npm run restore` checks so it never swaps the SQLite database under a running server, scheduled
 * backups of the embedded database, and the notification every store gets after a restore. On
 * Postgres, schedule `npm run backup` (or base backups) outside the servers: with several
 * instances, each would otherwise take its own.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { type AppDeps, createDeps } from './app.js';
import { openDatabase } from './boot.js';
import { type BackupTarget, PID_FILE, pruneBackups, takeBackup } from './db/backup.js';
import { backupDir, type Config } from './env.js';
import { objectStoreLocation } from './lib/storage-config.js';
import { notifyRestored } from './modules/notifications/notifications.exports.js';

export interface BackupSchedule {
  stop(): void;
}

export const backupTarget = (config: Config): BackupTarget => ({
  dataDir: config.DATA_DIR,
  // pg_dump and pg_restore hold one session throughout: never through a transaction pooler.
  ...(config.DATABASE_URL ? { postgres: { url: config.DATABASE_DIRECT_URL ?? config.DATABASE_URL, binDir: config.PG_BIN_DIR } } : {}),
  filesElsewhere: objectStoreLocation(config),
});

export async function startBackups(config: Config, deps: AppDeps, log: Logger): Promise<BackupSchedule> {
  if (config.DATABASE_URL) return { stop() {} };
  const pidFile = path.join(config.DATA_DIR, PID_FILE);
  writeFileSync(pidFile, `${process.pid}\n`);

  const dir = backupDir(config);
  // A failing backup counts as a stuck job (metrics, readiness): a shop without a fresh copy should page someone.
  const run = () =>
    deps.jobs.run('backup', async () => {
      const b = await takeBackup(backupTarget(config), dir, Date.now());
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

/**
 * After a restore: open the restored database (migrating it, as the next start would) and tell
 * every store, so owners know why sales reappear as the tills send them again. Answers how many.
 */
export async function announceRestore(config: Config, log: Logger, takenAt: number): Promise<number> {
  const handle = await openDatabase(config, log);
  try {
    return await notifyRestored(createDeps(config, handle, log), takenAt);
  } finally {
    await handle.close();
  }
}
