/** Registering a till (`POST /sync/devices`): its till code and the server's last applied seq. */
import { z } from 'zod';

export const RegisterDeviceInput = z
  .object({ device_id: z.uuid(), name: z.string().trim().min(1).max(100) })
  .meta({ id: 'RegisterDeviceInput' });
export const Device = z
  .object({ device_id: z.uuid(), name: z.string(), till_code: z.string(), store_id: z.uuid(), last_applied_seq: z.int() })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;
export type RegisterDeviceInput = z.infer<typeof RegisterDeviceInput>;
