/** Pull: the change log after the till's cursor. */
import { z } from 'zod';
import { Change } from './changes.js';
import { ServerTime } from './answered-at.js';

export const PullQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  /** The till's own id: a till the owner retired is then refused (403 `DEVICE_RETIRED`). */
  device_id: z.uuid().optional(),
});
export const PullResponse = z
  .object({
    changes: z.array(Change),
    /** Opaque: send it back as `cursor`. */
    cursor: z.string(),
    has_more: z.boolean(),
    /** The cursor is older than the change log keeps: re-bootstrap. */
    reset_required: z.boolean(),
    /**
     * The version of the platform's ADDO-permitted list now. The list is platform data, outside the
     * organisation's change log: a till of an ADDO store holding another version fetches it again
     * from `GET /pharmacy/addo-list`.
     */
    addo_list_version: z
      .int()
      .min(0)
      .meta({ description: "The ADDO-permitted list's version now; an ADDO till holding another fetches `GET /pharmacy/addo-list` again" }),
    server_time: ServerTime,
  })
  .meta({ id: 'PullResponse' });
export type PullResponse = z.infer<typeof PullResponse>;
