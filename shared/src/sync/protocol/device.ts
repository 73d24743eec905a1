/** Registering a till (`POST /sync/devices`): its till code and the server's last applied seq. */
import { z } from 'zod';
import { Timestamp } from '../../common.js';

export const RegisterDeviceInput = z
  .object({ device_id: z.uuid(), name: z.string().trim().min(1).max(100) })
  .meta({ id: 'RegisterDeviceInput' });
export const Device = z
  .object({ device_id: z.uuid(), name: z.string(), till_code: z.string(), store_id: z.uuid(), last_applied_seq: z.int() })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;
export type RegisterDeviceInput = z.infer<typeof RegisterDeviceInput>;

/** A till as the owner sees it (`GET /sync/devices`, back office): where it is and when it was last heard from. */
export const TillDevice = z
  .object({
    id: z.uuid(),
    name: z.string(),
    till_code: z.string(),
    store_id: z.uuid(),
    last_seen_at: Timestamp.nullable(),
    created_at: Timestamp,
    /** Set once the owner retired it: its push and pull are refused with 403 `DEVICE_RETIRED`. */
    retired_at: Timestamp.nullable(),
  })
  .meta({ id: 'TillDevice' });
export type TillDevice = z.infer<typeof TillDevice>;
