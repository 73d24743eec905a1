/**
 * Who may fetch an uploaded file. Images and logos are public: a price list or a receipt printed
 * elsewhere shows them, and their 128-bit random names keep them from being listed. Receipts and
 * attachments are the shop's papers: served to a signed-in member of the organisation, or to
 * whoever holds a signed link, which names one file and stops working after 15 minutes (an <img>
 * or a download in a browser cannot send a Bearer token, so the till asks for a link).
 */
import { PUBLIC_UPLOAD_KINDS, type SignedLink, type UploadKind, type UploadResult } from '@duka/shared';
import { requireSettledPassword } from '../../../lib/auth/authorize.js';
import { authenticate, bearerToken } from '../../../lib/auth/middleware.js';
import type { ServiceContext } from '../../../lib/context.js';
import { safeEqual } from '../../../lib/crypto.js';
import { NotFoundError, UnauthenticatedError } from '../../../lib/errors.js';
import type { UploadRow } from '../../../db/tables/uploads.table.js';
import { uploadUrl } from '../uploads.queries.js';

export const SIGNED_LINK_TTL_SEC = 15 * 60;

export const isPublicKind = (kind: string) => PUBLIC_UPLOAD_KINDS.includes(kind as UploadKind);

const terms = (fileName: string, expires: number) => `${fileName}\n${expires}`;

export function signedLink(ctx: ServiceContext, fileName: string): SignedLink {
  const expires = Math.floor(ctx.clock.now() / 1000) + SIGNED_LINK_TTL_SEC;
  const signature = ctx.keys.signLink(terms(fileName, expires));
  return {
    url: `${uploadUrl(ctx.config, fileName)}?expires=${expires}&signature=${signature}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
}

export function toUploadResult(ctx: ServiceContext, row: UploadRow): UploadResult {
  const base = {
    url: uploadUrl(ctx.config, row.file_name),
    key: row.key,
    name: row.name,
    size: Number(row.size),
    content_type: row.content_type as UploadResult['content_type'],
    kind: row.kind as UploadKind,
  };
  if (isPublicKind(row.kind)) return { ...base, private: false };
  const link = signedLink(ctx, row.file_name);
  return { ...base, private: true, signed_url: link.url, signed_url_expires_at: link.expires_at };
}

export interface FileCredentials {
  authorization?: string;
  expires?: string;
  signature?: string;
}

/**
 * Lets a private file through for a member's token or a valid, unexpired signed link. A member of
 * another organisation is told the file does not exist, as for any other tenant's id.
 */
export async function assertMayRead(ctx: ServiceContext, row: UploadRow, cred: FileCredentials): Promise<void> {
  if (isPublicKind(row.kind)) return;
  if (cred.signature !== undefined || cred.expires !== undefined) {
    const expires = Number(cred.expires);
    const valid =
      Number.isSafeInteger(expires) &&
      cred.signature !== undefined &&
      safeEqual(cred.signature, ctx.keys.signLink(terms(row.file_name, expires)));
    if (!valid) throw new UnauthenticatedError('this link is not valid; ask for a new one');
    if (expires * 1000 <= ctx.clock.now()) throw new UnauthenticatedError('this link has expired; ask for a new one', 'LINK_EXPIRED');
    return;
  }
  const token = bearerToken(cred.authorization);
  if (!token)
    throw new UnauthenticatedError("this file is private: send a member's access token, or use a signed link (GET /uploads/link)");
  const authed = await authenticate(ctx, token);
  const actor = await authed.sessions.current(authed.actor);
  requireSettledPassword(actor);
  if (actor.orgId !== row.org_id) throw new NotFoundError('file');
}
