/**
 * Uploaded files of an organisation. The type is judged from the bytes, never from the name or the
 * declared type; the stored name is random (128 bits), which is what makes the public file URL
 * unguessable, and the key always begins with the organisation id.
 */
import { randomBytes } from 'node:crypto';
import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '@duka/shared';
import type { SignedLink, UploadForm, UploadResult } from '@duka/shared';
import { fileTypeFromBuffer } from 'file-type';
import type { Readable } from 'node:stream';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { storageKey } from '../../../lib/storage.js';
import { findUploadByFileName, findUploadByKey, insertUpload } from '../uploads.queries.js';
import { assertMayRead, type FileCredentials, isPublicKind, signedLink, toUploadResult } from './file-access.js';

const IMAGE_KINDS = new Set(['image', 'logo']);

/** `receipts/2026` → its segments; a leading or trailing slash is ignored, an empty middle one is not. */
function folderSegments(folder: string | undefined, kind: string): string[] {
  const trimmed = (folder ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? trimmed.split('/') : [kind];
}

export async function uploadFile(ctx: AuthedContext, form: UploadForm): Promise<UploadResult> {
  const orgId = requireOrg(ctx);
  const { file, kind } = form;
  if (file.size > UPLOAD_MAX_BYTES) throw new ServiceError('PAYLOAD_TOO_LARGE', 'a file may be at most 10 MB');
  const segments = folderSegments(form.folder, kind);
  storageKey(orgId, ...segments, 'probe');
  if (file.size === 0) throw new ValidationError('file', 'is empty');
  const bytes = Buffer.from(await file.arrayBuffer());
  const detected = await fileTypeFromBuffer(bytes);
  const mime = detected?.mime as string | undefined;
  if (!detected || !mime || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(mime)) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `only ${UPLOAD_CONTENT_TYPES.join(', ')} files can be uploaded${mime ? `; this file is ${mime}` : ''}`,
    );
  }
  if (IMAGE_KINDS.has(kind) && !mime.startsWith('image/')) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `a ${kind} must be an image`);
  const fileName = `${randomBytes(16).toString('hex')}.${detected.ext}`;
  const key = storageKey(orgId, ...segments, fileName);
  await ctx.storage.put(key, bytes);
  try {
    return await withTransaction(ctx, async (tx) => {
      const row = await insertUpload(
        tx.db,
        {
          key,
          file_name: fileName,
          org_id: orgId,
          store_id: ctx.actor.storeId,
          name: (file.name || fileName).slice(0, 255),
          size: bytes.length,
          content_type: mime,
          kind,
          created_by: ctx.actor.userId,
        },
        tx.clock.now(),
      );
      await recordAudit(tx, { action: 'upload.create', description: `Uploaded ${row.name}`, entity: 'upload', entityId: row.id });
      return toUploadResult(ctx, row);
    });
  } catch (err) {
    await ctx.storage.delete(key).catch(() => false);
    throw err;
  }
}

/** Only a file of the caller's organisation; anything else is not found. */
export async function deleteUpload(ctx: AuthedContext, key: string | undefined): Promise<void> {
  if (!key) throw new ValidationError('key', 'is required');
  const orgId = requireOrg(ctx);
  const row = await findUploadByKey(ctx.db, orgId, key);
  if (!row) throw new NotFoundError('file');
  await withTransaction(ctx, async (tx) => {
    await tx.db.deleteFrom('uploads').where('org_id', '=', orgId).where('id', '=', row.id).execute();
    await recordAudit(tx, { action: 'upload.delete', description: `Deleted ${row.name}`, entity: 'upload', entityId: row.id });
  });
  // After the row: a failure here leaves an unreachable file, never a row without its file.
  await ctx.storage.delete(key);
}

/** A fresh signed link to a file of the caller's organisation (for a browser, which cannot send a token). */
export async function linkUpload(ctx: AuthedContext, key: string): Promise<SignedLink> {
  const row = await findUploadByKey(ctx.db, requireOrg(ctx), key);
  if (!row) throw new NotFoundError('file');
  return signedLink(ctx, row.file_name);
}

/** The file behind an upload URL, if the caller may read it (file-access.ts). */
export async function openUpload(
  ctx: ServiceContext,
  fileName: string,
  cred: FileCredentials,
): Promise<{ stream: Readable; size: number; contentType: string; name: string; isPublic: boolean }> {
  const row = await findUploadByFileName(ctx.db, fileName);
  if (!row) throw new NotFoundError('file');
  await assertMayRead(ctx, row, cred);
  const stored = await ctx.storage.get(row.key);
  if (!stored) throw new NotFoundError('file');
  return { ...stored, contentType: row.content_type, name: row.name, isPublic: isPublicKind(row.kind) };
}
