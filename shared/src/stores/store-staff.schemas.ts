import { z } from 'zod';
import { User } from '../accounts/accounts.schemas.js';

/** Kept apart from stores.schemas.ts, which the accounts schemas import (no import cycle). */
export const StoreStaffList = z.object({ items: z.array(User), count: z.int() }).meta({ id: 'StoreStaffList' });
export type StoreStaffList = z.infer<typeof StoreStaffList>;
