/** Bootstrap: the paged snapshot a new (or reset) till loads before it pulls. */
import { z } from 'zod';
import { Change } from './changes.js';

export const BootstrapQuery = z.object({
  page_token: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
export const BootstrapResponse = z
  .object({
    rows: z.array(Change),
    /** Absent on the last page. */
    page_token: z.string().nullable(),
    /** Pull from here once every page is loaded. */
    cursor: z.string(),
    /** Rows in the whole snapshot, for a progress bar. */
    total: z.int(),
  })
  .meta({ id: 'BootstrapResponse' });
export type BootstrapResponse = z.infer<typeof BootstrapResponse>;
