/** File uploads: receipts, logos, product images and attachments, kept per organisation. */
import { z } from 'zod';
import { Timestamp } from '../common.js';

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** What an upload may be, judged from its bytes (contract, Limits). */
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

export const UploadKind = z.enum(['image', 'logo', 'receipt', 'attachment']).meta({
  id: 'UploadKind',
  description: '`image` and `logo` must be images and are public; `receipt` and `attachment` are private to the organisation',
});
export type UploadKind = z.infer<typeof UploadKind>;

/** Kinds meant to be seen by anyone holding the URL (a product photo on a price list, a shop's logo). */
export const PUBLIC_UPLOAD_KINDS: readonly UploadKind[] = ['image', 'logo'];

export const UploadForm = z
  .object({
    file: z
      .custom<File>((v) => typeof File !== 'undefined' && v instanceof File, 'must be a file')
      .meta({
        type: 'string',
        format: 'binary',
        description: `At most 10 MB (413 beyond); ${UPLOAD_CONTENT_TYPES.join(', ')}, judged from the bytes (415 otherwise)`,
      } as Record<string, unknown>),
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
    url: z.string().meta({
      description:
        "Where the file is served. Images and logos: public and long-cached. Receipts and attachments: only with a member's access token (`Authorization: Bearer`), or through `signed_url`",
    }),
    key: z.string().meta({ description: 'Storage key; begins with the organisation id. Send it to DELETE /uploads' }),
    name: z.string().meta({ description: 'The file name as uploaded' }),
    size: z.int(),
    content_type: z.enum(UPLOAD_CONTENT_TYPES),
    kind: UploadKind,
    private: z.boolean().meta({ description: 'Served only to members of the organisation or through a signed link' }),
    signed_url: z.string().optional().meta({
      description:
        'Private files: a link that works without a token until `signed_url_expires_at` (15 minutes); GET /uploads/link makes a fresh one',
    }),
    signed_url_expires_at: Timestamp.optional(),
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof UploadResult>;

export const DeleteUploadInput = z.object({ key: z.string().min(1).max(500) }).meta({ id: 'DeleteUploadInput' });
export type DeleteUploadInput = z.infer<typeof DeleteUploadInput>;
export const DeleteUploadQuery = z.object({
  key: z.string().min(1).max(500).optional().meta({ description: 'Or send `{ "key" }` as the JSON body' }),
});
export const UploadFileParam = z.object({ name: z.string().min(1).max(120).meta({ description: 'The last part of an upload `url`' }) });
export const UploadFileQuery = z.object({
  expires: z.string().max(20).optional().meta({ description: 'Signed links only: when the link stops working (Unix seconds)' }),
  signature: z.string().max(100).optional().meta({ description: 'Signed links only' }),
});
export const UploadLinkQuery = z.object({ key: z.string().min(1).max(500).meta({ description: "The upload's `key`" }) });

export const SignedLink = z
  .object({ url: z.string().meta({ description: 'Works without a token until `expires_at`' }), expires_at: Timestamp })
  .meta({ id: 'SignedLink' });
export type SignedLink = z.infer<typeof SignedLink>;
