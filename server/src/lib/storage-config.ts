/** The one place a Storage is made from the configuration (STORAGE_DRIVER): app.ts calls it for the services and the messenger alike. */
import path from 'node:path';
import { FILES_DIR } from '../db/backup.js';
import type { Config } from '../env.js';
import { localDiskStorage, type Storage } from './storage.js';
import { s3Storage } from './storage-s3.js';

type StorageConfig = Pick<
  Config,
  | 'STORAGE_DRIVER'
  | 'DATA_DIR'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
  | 'S3_TIMEOUT_MS'
>;

export function storageFromConfig(config: StorageConfig): Storage {
  if (config.STORAGE_DRIVER === 'local') return localDiskStorage(path.join(config.DATA_DIR, FILES_DIR));
  // loadConfig has refused an s3 driver without these.
  return s3Storage({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX,
    timeoutMs: config.S3_TIMEOUT_MS,
  });
}

/** Where the files are when they are not in DATA_DIR (for backups to say so), or undefined when they are. */
export function objectStoreLocation(config: StorageConfig): string | undefined {
  if (config.STORAGE_DRIVER === 'local') return undefined;
  const where = `s3://${config.S3_BUCKET}/${config.S3_PREFIX ? `${config.S3_PREFIX}/` : ''}`;
  // The endpoint's host only: a URL could carry a password.
  return config.S3_ENDPOINT ? `${where} at ${new URL(config.S3_ENDPOINT).host}` : `${where} (AWS ${config.S3_REGION})`;
}
