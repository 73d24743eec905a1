/**
 * `npm run move-to-postgres -- [--from <folder or duka.db>] [--secret-file <path>] [--keep-secret env|file]`: move a
 * stopped embedded shop (its database, its files and its signing secret) into the empty
 * PostgreSQL at DATABASE_URL; the files go to the servers' storage (DATA_DIR's disk, or S3). The source defaults to DATA_DIR.
 * Prints every table's rows and money sums on both sides, and which JWT_SECRET the PostgreSQL
 * servers need (by fingerprint: the secret itself only goes into --secret-file). docs/move-to-postgres.md.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DB_FILE, FILES_DIR } from '../db/backup.js';
import { formatChecks, MoveError, moveDatabase } from '../db/move/move.js';
import { readConfig } from '../env.js';
import { objectStoreLocation, storageFromConfig } from '../lib/storage-config.js';
import { copyFiles, type FilesCopied } from './move/files.js';
import { describeFailure } from './move/failure.js';
import {
  checkSecretFile,
  checkSecretKnown,
  checkSecretOpens,
  fingerprint,
  type KeepSecret,
  keepFingerprint,
  sourceSecret,
  writeSecretFile,
} from './move/secret.js';

let databaseUrl: string | undefined;
try {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, 'secret-file': { type: 'string' }, 'keep-secret': { type: 'string' } },
  });
  const keep = values['keep-secret'];
  if (keep !== undefined && keep !== 'env' && keep !== 'file')
    throw new MoveError('--keep-secret takes env (keep JWT_SECRET) or file (keep the jwt-secret beside the database)');
  const config = readConfig();
  databaseUrl = config.DATABASE_URL;
  if (!config.DATABASE_URL) throw new MoveError('set DATABASE_URL to the PostgreSQL database to move into');
  const from = path.resolve(values.from ?? config.DATA_DIR);
  const dbFile = existsSync(from) && statSync(from).isDirectory() ? path.join(from, DB_FILE) : from;
  // Before the secret: a wrong --from is the mistake to name, not the secret missing beside it.
  if (!existsSync(dbFile))
    throw new MoveError(`no database at ${dbFile}: --from names the folder of duka.db (default DATA_DIR), or the file`);
  const sourceDir = path.dirname(dbFile);
  const secret = sourceSecret(config.JWT_SECRET, sourceDir, keep as KeepSecret | undefined);
  const secretFile = values['secret-file'] ? path.resolve(values['secret-file']) : null;
  if (secretFile) checkSecretFile(secretFile, secret.secret);
  // Where the PostgreSQL servers will read files: DATA_DIR's disk, or the object store (STORAGE_DRIVER=s3).
  const storage = storageFromConfig(config);
  const filesAt = objectStoreLocation(config) ?? path.join(config.DATA_DIR, FILES_DIR);
  const sameFiles = config.STORAGE_DRIVER === 'local' && path.resolve(sourceDir, FILES_DIR) === path.resolve(config.DATA_DIR, FILES_DIR);
  let files: FilesCopied | null = null;

  console.log(`moving ${dbFile} into PostgreSQL`);
  const checks = await moveDatabase({
    sqliteFile: dbFile,
    url: config.DATABASE_URL,
    beforeCopy: async (sqlite) => {
      checkSecretKnown(sqlite, secret);
      const opened = checkSecretOpens(sqlite, secret);
      console.log(
        `secret: from ${secret.from} (${fingerprint(secret.secret)}); it opens the ${opened} kind(s) of sealed values in the database`,
      );
      if (!sameFiles) files = await copyFiles(path.join(sourceDir, FILES_DIR), storage);
    },
    beforeCommit: (client) => keepFingerprint(client, secret),
    progress: (table, rows) => console.log(`  ${table}: ${rows} row(s)`),
  });
  console.log(`\nverified, sqlite = postgres:\n${formatChecks(checks)}\n`);
  const copied = files as FilesCopied | null;
  console.log(
    sameFiles
      ? `files: already in place in ${filesAt}`
      : `files: ${copied?.files ?? 0} (${copied?.bytes ?? 0} bytes) in ${filesAt}${copied?.skipped ? `, ${copied.skipped} of them already there` : ''}`,
  );
  if (secretFile) writeSecretFile(secretFile, secret.secret);
  const where = secretFile ?? (secret.from === 'JWT_SECRET' ? 'the JWT_SECRET this move was given' : secret.from);
  console.log(
    `\nStart every PostgreSQL server with JWT_SECRET set to the secret in ${where} (${fingerprint(secret.secret)}), ` +
      'the same on every instance: without it, sign-ins, tills and every sealed key (SMS, TRA, authenticators) stop working.\n' +
      `The SQLite database at ${dbFile} is unchanged; keep it until the new servers have run a while.`,
  );
} catch (err) {
  // Whatever stopped it (a refusal, an unreachable database, a fault), the copy was rolled back: nothing was kept.
  console.error(describeFailure(err, databaseUrl));
  process.exit(1);
}
