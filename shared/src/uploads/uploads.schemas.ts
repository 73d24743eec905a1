/** File uploads: receipts, logos, product images and attachments, kept per organisation. */
import { z } from 'zod';

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** What an upload may be, judged from its bytes (contract, Limits). */
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

export const UploadKind = z.enum(['image', 'logo', 'receipt', 'attachment']).meta({ id: 'UploadKind', description: '`image` and `logo` must be images' });
export type UploadKind = z.infer<typeof UploadKind>;

export const UploadForm = z
  .object({
    file: z
      .custom<File>((v) => typeof File !== 'undefined' && v instanceof File, 'must be a file')
      .meta({ type: 'string', format: 'binary', description: `At most 10 MB (413 beyond); ${UPLOAD_CONTENT_TYPES.join(', ')}, judged from the bytes (415 otherwise)` } as Record<string, unknown>),
    kind: UploadKind.default('attachment'),
    folder: z
      .string()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'Sub-folder, `/`-separated plain names (`receipts/2026`); `..` is refused (400). Default: the kind' }),
  })
  .meta({ id: 'UploadForm' });
export type UploadForm = z.infer<typeof UploadForm>;

export const UploadResult = z
  .object({
    url: z.string().meta({ description: 'Where the file is served (public, unguessable)' }),
    key: z.string().meta({ description: 'Storage key; begins with the organisation id. Send it to DELETE /uploads' }),
    name: z.string().meta({ description: 'The file name as uploaded' }),
    size: z.int(),
    content_type: z.enum(UPLOAD_CONTENT_TYPES),
    kind: UploadKind,
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof UploadResult>;

export const DeleteUploadInput = z.object({ key: z.string().min(1).max(500) }).meta({ id: 'DeleteUploadInput' });
export type DeleteUploadInput = z.infer<typeof DeleteUploadInput>;
export const DeleteUploadQuery = z.object({ key: z.string().min(1).max(500).optional().meta({ description: 'Or send `{ "key" }` as the JSON body' }) });
export const UploadFileParam = z.object({ name: z.string().min(1).max(120).meta({ description: 'The last part of an upload `url`' }) });
