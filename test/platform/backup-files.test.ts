/** The backup files themselves: whole or absent, pruned to BACKUP_KEEP, checked before a restore. */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkBackup, listBackups, pruneBackups, restoreBackup, takeBackup } from '../../server/src/db/backup.js';
import { DIALECT } from '../setup/test-db.js';

function shopData(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-data-'));
  const db = new SQLite(path.join(dir, 'duka.db'));
  db.pragma('journal_mode = WAL');
  db.exec('create table kysely_migration (name text primary key); create table sales (id integer primary key, total integer)');
  db.prepare('insert into sales (total) values (?)').run(2500);
  // Left open, as a running server leaves it: the row is in the WAL, not yet in the main file.
  mkdirSync(path.join(dir, 'files', 'org-1', 'image'), { recursive: true });
  writeFileSync(path.join(dir, 'files', 'org-1', 'image', 'a.png'), 'png');
  return dir;
}

const T0 = Date.UTC(2026, 10, 24, 6, 0, 0);

describe.runIf(DIALECT === 'sqlite')('backup files', () => {
  it('copies what is only in the WAL, with the files, and a crashed temporary is never listed and is cleared by the next backup', async () => {
    const data = shopData();
    const backups = path.join(data, 'backups');
    mkdirSync(path.join(backups, '.tmp-duka-20261124T050000000Z'), { recursive: true });
    expect(listBackups(backups)).toEqual([]);
    const b = await takeBackup({ dataDir: data }, backups, T0);
    expect(path.basename(b.dir)).toBe('duka-20261124T060000000Z');
    expect(readdirSync(backups)).toEqual(['duka-20261124T060000000Z']);
    const copy = new SQLite(path.join(b.dir, 'duka.db'), { readonly: true });
    expect(copy.prepare('select total from sales').all()).toEqual([{ total: 2500 }]);
    copy.close();
    expect(existsSync(path.join(b.dir, 'files', 'org-1', 'image', 'a.png'))).toBe(true);
    expect((await checkBackup(b.dir, { dataDir: data })).takenAt).toBe(T0);
  });

  it('with the files in an object store: the backup holds the database, says where the files are, and a restore leaves DATA_DIR/files alone', async () => {
    const data = shopData();
    const filesElsewhere = 's3://duka-files/prod/ at minio:9000';
    const b = await takeBackup({ dataDir: data, filesElsewhere }, path.join(data, 'backups'), T0);
    expect(existsSync(path.join(b.dir, 'files'))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(b.dir, 'backup.json'), 'utf8'))).toMatchObject({ files: filesElsewhere });

    const target = mkdtempSync(path.join(tmpdir(), 'duka-target-'));
    mkdirSync(path.join(target, 'files'));
    writeFileSync(path.join(target, 'files', 'left-from-before.png'), 'png');
    await restoreBackup({ dataDir: target, filesElsewhere }, b.dir, T0);
    expect(readdirSync(path.join(target, 'files'))).toEqual(['left-from-before.png']);
  });

  it('keeps the newest BACKUP_KEEP backups', async () => {
    const data = shopData();
    const backups = path.join(data, 'backups');
    for (let h = 0; h < 5; h++) await takeBackup({ dataDir: data }, backups, T0 + h * 3_600_000);
    const removed = await pruneBackups(backups, 2);
    expect(removed.map((d) => path.basename(d))).toEqual([
      'duka-20261124T080000000Z',
      'duka-20261124T070000000Z',
      'duka-20261124T060000000Z',
    ]);
    expect(listBackups(backups).map((d) => path.basename(d))).toEqual(['duka-20261124T100000000Z', 'duka-20261124T090000000Z']);
  });

  it('refuses a damaged backup and changes nothing', async () => {
    const data = shopData();
    const b = await takeBackup({ dataDir: data }, path.join(data, 'backups'), T0);
    // Overwrite a page in the middle of the copy: SQLite's integrity check finds it.
    const file = path.join(b.dir, 'duka.db');
    const db = new SQLite(file);
    db.exec('create table filler (x text)');
    const fill = db.prepare('insert into filler values (?)');
    for (let i = 0; i < 200; i++) fill.run('x'.repeat(500));
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, 4096 * 3);
    closeSync(fd);
    const target = mkdtempSync(path.join(tmpdir(), 'duka-target-'));
    await expect(restoreBackup({ dataDir: target }, b.dir, T0)).rejects.toThrow(/is (damaged|not a readable SQLite database)/);
    expect(readdirSync(target)).toEqual([]);
  });
});
