/** Bootstrap: the paged snapshot a new (or reset) till loads before it pulls. */
import { z } from 'zod';
import { Change } from './changes.js';

export const BootstrapQuery = z.object({
  page_token: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
  /**
   * `rows` (the default): the store's levels come as `stock` rows too. `products`: only as each
   * product's `stock` (and `unit`), which every product row carries, so the walk has no `stock`
   * kind: a till that takes its levels from its products asks so (issue 53).
   */
  levels: z.enum(['rows', 'products']).default('rows'),
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
