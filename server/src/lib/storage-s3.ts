/**
 * Storage in any S3-compatible object store (AWS S3, Cloudflare R2, MinIO…), so that every server
 * instance reads the same files. Keys are the same as on disk, under an optional prefix.
 *
 * Only what all of these stores support is used: PutObject (multipart through lib-storage for a
 * stream of unknown length, so a big report is never held whole in memory), GetObject, HeadObject
 * and DeleteObject. Checksums are sent only where the API requires them: the SDK's default
 * (a CRC32 trailer on every upload) is refused by several S3-compatible stores.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type Storage, StorageError } from './storage.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** Unset: AWS itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** A folder in the bucket, without slashes at either end. */
  prefix?: string;
  /** Waiting for a connection, for an answer, or for the next bytes of one. */
  timeoutMs: number;
}

/** The smallest part S3 accepts; a stream is buffered a part at a time, `QUEUE` parts at most. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** What went wrong, for the log: the SDK's error name, message and status; never the request or the credentials. */
function failed(op: string, key: string, err: unknown): StorageError {
  const status = err instanceof S3ServiceException ? ` (HTTP ${err.$metadata.httpStatusCode ?? '?'})` : '';
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new StorageError(`object storage ${op} of ${key} failed: ${what}${status}`);
}

/** The body as bytes, counted on the way through (put answers the size). */
async function* counted(body: AsyncIterable<Uint8Array | string>, count: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    count.bytes += bytes.length;
    yield bytes;
  }
}

export function s3Storage(s: S3Settings): Storage {
  const client = new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: s.timeoutMs,
      requestTimeout: s.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: s.timeoutMs,
    },
  });
  const Bucket = s.bucket;
  const objectKey = (key: string) => (s.prefix ? `${s.prefix}/${key}` : key);

  async function exists(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw failed('head', key, err);
    }
  }

  return {
    async put(key, body) {
      try {
        if (Buffer.isBuffer(body)) {
          await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentLength: body.length }));
          return body.length;
        }
        const count = { bytes: 0 };
        const source = Readable.from(counted(body, count));
        await new Upload({ client, params: { Bucket, Key: objectKey(key), Body: source }, partSize: PART_BYTES, queueSize: QUEUE }).done();
        return count.bytes;
      } catch (err) {
        throw failed('put', key, err);
      }
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const stream = out.Body as Readable;
        // The size becomes the answer's Content-Length: a guess would cut the file short.
        if (out.ContentLength === undefined) {
          stream.destroy();
          throw new Error('the store sent no Content-Length');
        }
        return { stream, size: out.ContentLength };
      } catch (err) {
        if (isMissing(err)) return null;
        throw failed('get', key, err);
      }
    },
    async check(timeoutMs) {
      // Any answer from the store will do, a missing key's 404 or a 403 where listing is not allowed:
      // what the probe asks is whether it can be reached, not whether a key is there.
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey('.duka-probe') }), {
          abortSignal: AbortSignal.timeout(Math.min(timeoutMs, s.timeoutMs)),
        });
      } catch (err) {
        const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
        if (status !== undefined && status < 500) return;
        throw failed('check', '.duka-probe', err);
      }
    },
    async delete(key) {
      // S3 answers a delete of a missing key as a success, so whether there was one is asked first.
      if (!(await exists(key))) return false;
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (err) {
        throw failed('delete', key, err);
      }
    },
  };
}
