/** Staff management (owner only): the organisation's employees, i.e. users with role `staff` or `manager`. */
import { z } from 'zod';
import { DateString, Email, EmploymentStatus, Money, Phone, QueryBool, Shift, Timestamp } from '../common.js';
import { User } from '../accounts/accounts.schemas.js';

export const StaffRole = z.enum(['staff', 'manager']);
export type StaffRole = z.infer<typeof StaffRole>;

export const StaffPin = z
  .string()
  .regex(/^\d{4,6}$/, 'must be 4 to 6 digits')
  .meta({ description: 'Till PIN, 4-6 digits; stored hashed, never returned', example: '4821' });
export const AvatarHue = z.int().min(0).max(359).meta({ description: 'Hue of the avatar colour, 0-359' });

/** The permission flags of a staff member (docs/roles.md), every one a plain boolean. */
const permissionFlags = {
  can_refund: z.boolean(),
  can_discount: z.boolean(),
  can_view_reports: z.boolean(),
  can_manage_pharmacy: z.boolean(),
  can_manage_credit: z.boolean(),
  can_manage_stock: z.boolean(),
  can_manage_suppliers: z.boolean(),
};

const staffFields = {
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().max(100),
  phone: Phone,
  email: Email,
  role: StaffRole,
  store_id: z.uuid(),
  shift: Shift,
  employment_status: EmploymentStatus,
  avatar_hue: AvatarHue,
  pin: StaffPin,
  ...permissionFlags,
};

export const CreateStaffInput = z
  .object({
    ...staffFields,
    last_name: staffFields.last_name.default(''),
    email: Email.optional(),
    role: StaffRole.default('staff'),
    store_id: staffFields.store_id.optional().meta({ description: 'Defaults to the caller’s active store' }),
    shift: Shift.optional(),
    employment_status: z
      .enum(['active', 'on_leave'], { error: 'must be active or on_leave (a new employee cannot start inactive)' })
      .default('active'),
    avatar_hue: AvatarHue.optional(),
    pin: StaffPin.optional(),
    ...z.object(permissionFlags).partial().shape,
  })
  .meta({ id: 'CreateStaffInput' });
export type CreateStaffInput = z.infer<typeof CreateStaffInput>;

export const UpdateStaffInput = z
  .object({
    ...staffFields,
    email: Email.nullable(),
    shift: Shift.nullable(),
    avatar_hue: AvatarHue.nullable(),
    pin: StaffPin.nullable().meta({ description: '`null` removes the PIN' }),
    employment_status: EmploymentStatus.meta({
      description: '`inactive` deactivates the account (as DELETE does); `active` or `on_leave` reactivates a deactivated one',
    }),
  })
  .partial()
  .meta({ id: 'UpdateStaffInput' });
export type UpdateStaffInput = z.infer<typeof UpdateStaffInput>;

export const StaffShiftInput = z
  .object({ shift: Shift.nullable(), employment_status: UpdateStaffInput.shape.employment_status })
  .partial()
  .meta({ id: 'StaffShiftInput' });
export type StaffShiftInput = z.infer<typeof StaffShiftInput>;

export const StaffPermissionsInput = z
  .object(permissionFlags)
  .partial()
  .meta({ id: 'StaffPermissionsInput', description: 'Applies at the user’s next request (on every server instance)' });
export type StaffPermissionsInput = z.infer<typeof StaffPermissionsInput>;

export const StaffOrdering = z.enum(['name', '-name', 'created_at', '-created_at']);

export const ListStaffQuery = z.object({
  search: z.string().trim().max(100).optional().meta({ description: 'First or last name (any case), or phone in `0…` or `+255…` form' }),
  role: StaffRole.optional(),
  status: EmploymentStatus.optional().meta({ description: 'Employment status' }),
  shift: Shift.optional(),
  ordering: StaffOrdering.default('name'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100))
    .meta({ description: 'Page size, default 20; above 100 is clamped to 100' }),
  include_stats: QueryBool.optional().meta({ description: 'Add each member’s sales `stats`' }),
});
export type ListStaffQuery = z.infer<typeof ListStaffQuery>;

export const StaffStats = z
  .object({
    total_sales: Money.meta({ description: 'Sum of paid and credit sales rung up by the member' }),
    transaction_count: z.int().meta({ description: 'Paid and credit sales' }),
    average_ticket: Money,
    refund_count: z.int(),
    discount_total: Money.meta({ description: 'Discounts given on paid and credit sales' }),
  })
  .meta({ id: 'StaffStats' });
export type StaffStats = z.infer<typeof StaffStats>;

export const StaffMember = User.extend({ stats: StaffStats.optional().meta({ description: 'With `include_stats=true`' }) }).meta({
  id: 'StaffMember',
});
export type StaffMember = z.infer<typeof StaffMember>;

export const StaffList = z.object({ items: z.array(StaffMember), total: z.int() }).meta({ id: 'StaffList' });
export type StaffList = z.infer<typeof StaffList>;

export const StaffKpis = z
  .object({
    total_staff: z.int().meta({ description: 'Staff and managers whose accounts are active' }),
    active_today: z.int().meta({ description: 'Staff and managers with a sale or a sign-in today (organisation time zone)' }),
    total_sales_today: Money.meta({ description: 'Paid and credit sales rung up today by staff and managers' }),
    average_sales_per_staff: Money.meta({ description: '`total_sales_today` / `active_today`, 0 when nobody was active' }),
  })
  .meta({ id: 'StaffKpis' });
export type StaffKpis = z.infer<typeof StaffKpis>;

export const StaffActivityQuery = z.object({ date: DateString.optional().meta({ description: 'Local day; defaults to today' }) });

export const StaffActivityItem = z
  .object({
    type: z.string().meta({ description: 'The audit action, e.g. `auth.login`', example: 'auth.login' }),
    time: z.string().meta({ description: 'Local time, HH:MM:SS', example: '08:02:11' }),
    description: z.string(),
    at: Timestamp,
  })
  .meta({ id: 'StaffActivityItem' });

export const StaffActivity = z
  .object({ date: DateString, items: z.array(StaffActivityItem).meta({ description: 'Oldest first' }) })
  .meta({ id: 'StaffActivity' });
export type StaffActivity = z.infer<typeof StaffActivity>;

export const StaffDeactivated = z.object({ deactivated: z.literal(true) }).meta({ id: 'StaffDeactivated' });

/** POST /staff/{id}/reset-password: a temporary password went out by SMS and the member was signed out. */
export const StaffPasswordReset = z.object({ password_reset: z.literal(true) }).meta({ id: 'StaffPasswordReset' });
export type StaffPasswordReset = z.infer<typeof StaffPasswordReset>;
