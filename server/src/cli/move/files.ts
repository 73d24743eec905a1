/**
 * Uploaded files and report exports, from the embedded server's DATA_DIR/files into the storage
 * the PostgreSQL servers read, through the Storage interface so that any driver takes them. A
 * file already there with the same size is skipped: uploads are written once under random names
 * and never changed, so a second run after a failed one copies only what is missing.
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Storage } from '../../lib/storage.js';

export interface FilesCopied {
  files: number;
  bytes: number;
  /** Already in the target storage. */
  skipped: number;
}

function walk(dir: string, prefix: string[] = []): Array<{ key: string; file: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p, [...prefix, e.name]);
    return e.isFile() ? [{ key: [...prefix, e.name].join('/'), file: p }] : [];
  });
}

export async function copyFiles(sourceDir: string, storage: Storage): Promise<FilesCopied> {
  const result = { files: 0, bytes: 0, skipped: 0 };
  if (!existsSync(sourceDir)) return result;
  for (const { key, file } of walk(sourceDir)) {
    const size = statSync(file).size;
    const there = await storage.get(key);
    there?.stream.destroy();
    if (there?.size === size) result.skipped++;
    else if ((await storage.put(key, createReadStream(file))) !== size)
      throw new Error(`${key}: the copy in the target storage is not ${size} bytes`);
    result.files++;
    result.bytes += size;
  }
  return result;
}
