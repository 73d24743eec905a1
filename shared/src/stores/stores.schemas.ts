import { z } from 'zod';
import { DateString, Email, Money, Phone, Timestamp } from '../common.js';
import { OutletType } from '../pharmacy/pharmacy.schemas.js';

export const StoreStatus = z.enum(['open', 'closed', 'busy']);
export type StoreStatus = z.infer<typeof StoreStatus>;

export const Store = z
  .object({
    id: z.uuid(),
    name: z.string(),
    code: z.string().meta({ description: 'Short code used in receipt numbers' }),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    area: z.string().nullable(),
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    open_hours: z.string().nullable(),
    color: z.string().nullable(),
    status: StoreStatus,
    vat_enabled: z.boolean(),
    outlet_type: OutletType.nullable().meta({ description: 'A store that dispenses medicine: `pharmacy` or `addo`; null otherwise' }),
    fiscal: z.boolean().meta({
      description: 'The store issues TRA fiscal receipts (switched on in `PUT /stores/{id}/fiscal`): tills offer the buyer’s TIN',
    }),
    is_active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Store' });
export type Store = z.infer<typeof Store>;

const HOUR_MINUTE = '([01]\\d|2[0-3]):[0-5]\\d';

/** `HH:MM-HH:MM` with real clock times; a closing time before the opening one means open past midnight. */
export const OpenHours = z
  .string()
  .trim()
  .regex(new RegExp(`^${HOUR_MINUTE}-${HOUR_MINUTE}$`), 'must be HH:MM-HH:MM with hours 00-23 and minutes 00-59')
  .meta({ example: '07:00-21:00' });

/** `#RRGGBB`, answered in upper case. */
export const HexColor = z
  .string()
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a hex colour #RRGGBB')
  .toUpperCase()
  .meta({ example: '#1E88E5' });

/** Letters and digits only: the code starts every receipt number (`KB-000042`). */
export const StoreCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,10}$/, 'must be 1 to 10 letters or digits')
  .toUpperCase()
  .meta({ description: 'Unique in the organisation; stored in upper case', example: 'KB' });

const optText = (max: number) => z.string().trim().max(max).nullable();

/** Every writable store field, none required and with no defaults (so that PATCH changes only what it names). */
const StoreFields = z.object({
  name: z.string().trim().min(1).max(150),
  code: StoreCode,
  phone: Phone.nullable(),
  email: Email.nullable(),
  area: optText(150),
  address: optText(300),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  open_hours: OpenHours.nullable(),
  color: HexColor.nullable(),
  status: StoreStatus,
  vat_enabled: z.boolean(),
  outlet_type: OutletType.nullable(),
});

export const CreateStoreInput = StoreFields.partial().extend({ name: StoreFields.shape.name }).meta({
  id: 'CreateStoreInput',
  description: '`code` is generated from the name when absent; `status` defaults to `open`, `vat_enabled` to false, `outlet_type` to null',
});
export type CreateStoreInput = z.infer<typeof CreateStoreInput>;

export const UpdateStoreInput = StoreFields.partial()
  .extend({
    is_active: z.boolean().optional().meta({ description: '`true` reactivates a deactivated store; `false` deactivates, like DELETE' }),
  })
  .meta({ id: 'UpdateStoreInput' });
export type UpdateStoreInput = z.infer<typeof UpdateStoreInput>;

export const StoreStatusInput = z.object({ status: StoreStatus }).meta({ id: 'StoreStatusInput' });
export type StoreStatusInput = z.infer<typeof StoreStatusInput>;

export const ListStoresQuery = z.object({
  status: z.enum(['open', 'closed', 'busy', 'active', 'inactive']).optional().meta({
    description: '`open`, `closed`, `busy` filter on status; `active`, `inactive` on whether the store is deactivated; absent: every store',
  }),
});
export type ListStoresQuery = z.infer<typeof ListStoresQuery>;

export const StoreWithKpis = Store.extend({
  today_sales: Money.meta({ description: "Sum of today's paid and credit sales (organisation's time zone)" }),
  today_transactions: z.int().meta({ description: "Number of today's paid and credit sales" }),
  staff_on_duty: z.int().meta({
    description:
      'Active users assigned to the store, employment status active, whose shift covers the current local time: morning 06:00-14:00, evening 14:00-22:00, full_day 06:00-22:00, weekend all of Saturday and Sunday',
  }),
}).meta({ id: 'StoreWithKpis' });
export type StoreWithKpis = z.infer<typeof StoreWithKpis>;

export const StoreList = z.object({ items: z.array(StoreWithKpis), count: z.int() }).meta({ id: 'StoreList' });
export type StoreList = z.infer<typeof StoreList>;

export const StoreStats = z
  .object({
    total_stores: z.int().meta({ description: 'Every store, deactivated ones included' }),
    active_stores: z.int(),
    total_sales_today: Money.meta({ description: "Paid and credit sales of every store today (organisation's time zone)" }),
    total_staff: z.int().meta({ description: 'Active users with role staff or manager' }),
  })
  .meta({ id: 'StoreStats' });
export type StoreStats = z.infer<typeof StoreStats>;

export const StoreDay = z
  .object({
    date: DateString,
    sales: Money.meta({ description: 'Paid and credit sales of the day' }),
    transactions: z.int(),
  })
  .meta({ id: 'StoreDay' });
export type StoreDay = z.infer<typeof StoreDay>;

export const StoreWeek = z
  .array(StoreDay)
  .meta({ id: 'StoreWeek', description: 'The last 7 local days, today last; days without sales are zero' });
