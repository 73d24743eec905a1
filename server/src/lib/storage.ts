/**
 * Where uploaded files and generated report exports live. Keys are `/`-separated paths that
 * always begin with the owning organisation's id; callers build them with `storageKey`, which
 * refuses any segment that could climb out (`..`, empty, absolute). The local-disk driver is the
 * default; storage-s3.ts keeps them in an S3-compatible store, and storage-config.ts picks one.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from './errors.js';

export interface StoredObject {
  stream: Readable;
  size: number;
}

export interface Storage {
  /** Write the whole body under `key`, replacing what was there; returns the bytes written. */
  put(key: string, body: Buffer | AsyncIterable<Uint8Array | string>): Promise<number>;
  /** The object as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** True when something was deleted. */
  delete(key: string): Promise<boolean>;
  /** Resolves when the store answers (the readiness probe asks), within `timeoutMs`; throws a StorageError otherwise. */
  check(timeoutMs: number): Promise<void>;
  // Any other failure (the store unreachable, timed out, refusing) throws.
}

/**
 * The store failed (unreachable, timed out, refused): not the caller's fault, and most often
 * passing, so it is rendered as a 503 with Retry-After and no detail; its message (which names the
 * key, never a credential) is logged.
 */
export class StorageError extends Error {
  override name = 'StorageError';
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Join checked path segments into a key; a segment that is not a plain name is a 400. */
export function storageKey(...segments: string[]): string {
  for (const s of segments) {
    if (!SEGMENT.test(s) || s.includes('..')) {
      throw new ServiceError('VALIDATION_ERROR', `"${s}" is not allowed in a file path: use letters, digits, dot, dash and underscore`);
    }
  }
  return segments.join('/');
}

/** Files under `root` on the local disk. */
export function localDiskStorage(root: string): Storage {
  const base = path.resolve(root);
  const file = (key: string) => {
    const full = path.resolve(base, key);
    // Keys come from storageKey, so this never fires; it is the last line of defence.
    if (!full.startsWith(base + path.sep)) throw new ServiceError('VALIDATION_ERROR', 'file path escapes the storage area');
    return full;
  };
  return {
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      if (Buffer.isBuffer(body)) {
        await writeFile(target, body);
        return body.length;
      }
      await pipeline(Readable.from(body), createWriteStream(target));
      return (await stat(target)).size;
    },
    async get(key) {
      const target = file(key);
      const info = await stat(target).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(target), size: info.size };
    },
    async check() {
      await mkdir(base, { recursive: true }).catch((err: Error) => {
        throw new StorageError(`the files folder ${base} cannot be used: ${err.message}`);
      });
    },
    async delete(key) {
      const target = file(key);
      const info = await stat(target).catch(() => null);
      if (!info?.isFile()) return false;
      await rm(target);
      return true;
    },
  };
}
