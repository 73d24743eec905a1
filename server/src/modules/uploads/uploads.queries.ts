import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import type { Config } from '../../env.js';
import type { UploadRow } from '../../db/tables/uploads.table.js';

export function findUploadByKey(db: Kysely<Database>, orgId: string, key: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('org_id', '=', orgId).where('key', '=', key).executeTakeFirst();
}

/** The organisation's file of that name (a product image's address names it). */
export function findOrgUploadByFileName(db: Kysely<Database>, orgId: string, fileName: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('org_id', '=', orgId).where('file_name', '=', fileName).executeTakeFirst();
}

/** The file behind a file URL, which names the file and not its organisation. */
export function findUploadByFileName(db: Kysely<Database>, fileName: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('file_name', '=', fileName).modifyEnd(crossOrg('signed link')).executeTakeFirst();
}

export function insertUpload(db: Kysely<Database>, upload: Omit<UploadRow, 'id' | 'created_at'>, now: number): Promise<UploadRow> {
  return db
    .insertInto('uploads')
    .values({
      id: newId(),
      key: upload.key,
      file_name: upload.file_name,
      org_id: upload.org_id,
      store_id: upload.store_id,
      name: upload.name,
      size: upload.size,
      content_type: upload.content_type,
      kind: upload.kind,
      created_by: upload.created_by,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What an upload's address is built from, at the time of answering. */
export type FileAddress = Pick<Config, 'PUBLIC_URL' | 'BASE_PATH'>;

/** Absolute when PUBLIC_URL is configured, else a path on this server. */
export function uploadUrl(config: FileAddress, fileName: string): string {
  return `${config.PUBLIC_URL?.replace(/\/$/, '') ?? ''}${config.BASE_PATH}/uploads/files/${fileName}`;
}

/** The address of the file kept under `key`: its file name is the key's last segment. */
export const keyUrl = (config: FileAddress, key: string): string => uploadUrl(config, key.slice(key.lastIndexOf('/') + 1));
