/**
 * The signing secret a moved shop keeps. Tokens, and every value sealed in the database (SMS and AI
 * gateway keys, TRA certificates and credentials, TOTP secrets), are made with keys derived from
 * it: the PostgreSQL servers must run with the very secret the embedded server used, or all of
 * them break at once. A server without JWT_SECRET generated one into DATA_DIR/jwt-secret; the move
 * finds it there (or takes JWT_SECRET when set, as that server would have), proves it opens what
 * the database sealed, and never prints it: only its fingerprint, and where to read it, go to the
 * output, which often ends in a log.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { MoveError } from '../../db/move/move.js';
import { SECRET_FINGERPRINT } from '../../db/signing-secret.js';
import { GENERATED_SECRET_FILE } from '../../env.js';
import { deriveKeys, secretFingerprint } from '../../lib/crypto.js';

export interface SourceSecret {
  secret: string;
  /** Where it came from, for the operator: `JWT_SECRET` or the file's path. */
  from: string;
}

/** Which of two different secrets to keep, when the operator has said: `env` (JWT_SECRET) or `file` (the generated one). */
export type KeepSecret = 'env' | 'file';

/**
 * The secret the embedded server used: JWT_SECRET when set, else the one it generated beside its
 * database. When both are there and differ, the move cannot know which the server ran with (a
 * server given JWT_SECRET never reads the file, which may be left from before): it refuses unless
 * told which to keep, since the wrong one signs every till out.
 */
export function sourceSecret(jwtSecret: string | undefined, sourceDir: string, keep?: KeepSecret): SourceSecret {
  const file = path.join(sourceDir, GENERATED_SECRET_FILE);
  const generated = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  if (jwtSecret && generated && generated !== jwtSecret && !keep)
    throw new MoveError(
      `JWT_SECRET (${fingerprint(jwtSecret)}) differs from the secret in ${file} (${fingerprint(generated)}): ` +
        'the moved servers must keep the one this shop ran with; say which with --keep-secret env (JWT_SECRET) or --keep-secret file',
    );
  if (jwtSecret && keep !== 'file') return { secret: jwtSecret, from: 'JWT_SECRET' };
  if (!generated)
    throw new MoveError(
      keep === 'file'
        ? `--keep-secret file: ${file} does not exist`
        : `JWT_SECRET is not set and ${file} does not exist: set JWT_SECRET to the secret the server ran with`,
    );
  return { secret: generated, from: file };
}

export const fingerprint = secretFingerprint;

/** Refuse a secret that does not open the values sealed in the database (each `*_enc` column's first value). */
export function checkSecretOpens(sqlite: SQLite.Database, s: SourceSecret): number {
  const keys = deriveKeys(s.secret);
  const tables = sqlite
    .prepare("select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%'")
    .all() as Array<{ name: string }>;
  let opened = 0;
  for (const { name } of tables) {
    const cols = (sqlite.prepare('select name from pragma_table_info(?)').all(name) as Array<{ name: string }>).filter((c) =>
      c.name.endsWith('_enc'),
    );
    for (const { name: col } of cols) {
      const row = sqlite.prepare(`select "${col}" as v from "${name}" where "${col}" is not null limit 1`).get() as
        | { v: string }
        | undefined;
      if (!row) continue;
      try {
        keys.decrypt(row.v);
        opened++;
      } catch {
        throw new MoveError(
          `the secret from ${s.from} does not open the values sealed in ${name}.${col}: give the move the JWT_SECRET the server ran with`,
        );
      }
    }
  }
  return opened;
}

/**
 * The secret's fingerprint against the one the source database knows (its server kept it at start):
 * a differing one means the move was given a secret that server did not run with.
 */
export function checkSecretKnown(sqlite: SQLite.Database, s: SourceSecret): void {
  const row = sqlite.prepare('select value from platform_settings where name = ?').get(SECRET_FINGERPRINT) as { value: string } | undefined;
  if (row && row.value !== fingerprint(s.secret))
    throw new MoveError(
      `the secret from ${s.from} (${fingerprint(s.secret)}) is not the one the server on this database ran with (${row.value}): give the move that one`,
    );
}

/** The PostgreSQL servers will find the secret's fingerprint there, as their own servers would have kept it. */
export async function keepFingerprint(client: pg.Client, s: SourceSecret): Promise<void> {
  await client.query(
    `insert into platform_settings (name, value, updated_at) values ($1, $2, $3)
     on conflict (name) do update set value = excluded.value, updated_at = excluded.updated_at`,
    [SECRET_FINGERPRINT, fingerprint(s.secret), Date.now()],
  );
}

/** Write the secret where the operator asked (mode 0600); an existing different secret there is refused. */
export function checkSecretFile(file: string, secret: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8').trim() !== secret)
    throw new MoveError(`${file} already holds a different secret; remove it or choose another --secret-file`);
}

export function writeSecretFile(file: string, secret: string): void {
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
}
