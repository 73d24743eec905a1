/**
 * A product's image (issue 49): an uploaded file of the organisation is kept by its storage key and
 * its address is built when answering (PUBLIC_URL + BASE_PATH, or the path alone without
 * PUBLIC_URL), so it follows the server to a new host name or a move; an image elsewhere on the web
 * is kept as its URL. `image` takes the upload's `url` (relative or absolute, of this server or of
 * the one the shop moved from: the random file name is what identifies it), its `key`, or any
 * http(s) URL.
 */
import type { ProductTable } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { ValidationError } from '../../../lib/errors.js';
import { findOrgUploadByFileName, findUploadByKey, isPublicKind } from '../../uploads/uploads.exports.js';

type ImageColumns = Pick<ProductTable, 'image' | 'image_key'>;

/** The file name in an upload's address (`…/uploads/files/<name>`), or null when it is not one. */
function uploadFileName(image: string): string | null {
  const at = new URL(image, 'http://relative.invalid').pathname;
  const m = /\/uploads\/files\/([A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(at);
  return m ? m[1]! : null;
}

/** What to store for `image`: an upload's key, or a URL elsewhere; undefined leaves both as they are. */
export async function imageColumns(
  ctx: ServiceContext,
  orgId: string,
  image: string | null | undefined,
): Promise<ImageColumns | undefined> {
  if (image === undefined) return undefined;
  if (image === null) return { image: null, image_key: null };
  const absolute = /^https?:\/\//i.test(image);
  const fileName = uploadFileName(image);
  const upload = fileName
    ? await findOrgUploadByFileName(ctx.db, orgId, fileName)
    : image.startsWith(`${orgId}/`)
      ? await findUploadByKey(ctx.db, orgId, image)
      : undefined;
  if (upload) {
    if (!isPublicKind(upload.kind)) throw new ValidationError('image', 'is a private file; upload the image with kind image');
    return { image: null, image_key: upload.key };
  }
  if (absolute) return { image, image_key: null };
  throw new ValidationError('image', 'is not a file of your organisation: upload it first (POST /uploads) and send its url or key');
}
