/** The response envelope of design brief §3, shared by every business route. */
import { z } from 'zod';

export const PageMeta = z
  .object({
    page: z.int(),
    page_size: z.int(),
    total: z.int(),
    total_pages: z.int(),
  })
  .meta({ id: 'PageMeta' });
export type PageMeta = z.infer<typeof PageMeta>;

/** `{ success: true, message, data, errors: null, meta }` around `data`. */
export function Envelope<T extends z.ZodType>(data: T, meta: z.ZodType = z.null()) {
  return z.object({
    success: z.literal(true),
    message: z.string(),
    data,
    errors: z.null(),
    meta,
  });
}

/** A paged list: `data` is the array, `meta` the page. */
export function PagedEnvelope<T extends z.ZodType>(item: T) {
  return Envelope(z.array(item), PageMeta);
}

/** `{ success, message }` answers with no data. */
export const MessageEnvelope = Envelope(z.null()).meta({ id: 'MessageEnvelope' });

/** `page`/`page_size` query; `page_size` above 100 is clamped to 100 (design §3). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100)),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The `meta` of a paged list. */
export const pageMeta = (page: number, pageSize: number, total: number): PageMeta => ({
  page,
  page_size: pageSize,
  total,
  total_pages: Math.ceil(total / pageSize),
});
