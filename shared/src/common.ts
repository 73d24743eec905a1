/** Building blocks reused by every area's schemas. */
import { z } from 'zod';

export const Uuid = z.uuid();
export const IdParam = z.object({ id: z.uuid().meta({ description: 'Resource id (UUID)' }) });

/** ISO 8601 UTC timestamp as the API writes it. */
/**
 * A named schema, or null. `.nullable()` on a schema with an OpenAPI id makes the generator mark
 * the named component itself nullable (every `Store` of every client became `Store | null`); a
 * union keeps the component as it is and allows null only where the server sends it.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

export const Timestamp = z
  .string()
  .meta({ description: 'ISO 8601 UTC timestamp', format: 'date-time', example: '2026-11-21T07:30:00.000Z' });

/** A calendar date, `YYYY-MM-DD`, interpreted in the organisation's time zone. */
export const DateString = z.iso.date().meta({ description: 'YYYY-MM-DD', example: '2026-11-21' });

/** Money in the API: a number with at most two decimals (TZS). Stored as integer cents. */
export const Money = z.number().meta({ description: 'Amount in TZS, at most 2 decimals', multipleOf: 0.01, example: 1500 });
/** At most two decimals: the cents or basis points a number becomes are whole. */
const twoDecimals = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;
// multipleOf documents the rule for client generators; the check itself is exact in cents (0.07 % 0.01 is not 0 in floating point).
export const MoneyInput = z.number().nonnegative().max(1e12).refine(twoDecimals, 'at most 2 decimals').meta({ multipleOf: 0.01 });
/** A percentage as clients send it (discounts, tax rates): 0 to 100, at most two decimals. */
export const PercentInput = z.number().min(0).max(100).refine(twoDecimals, 'at most 2 decimals').meta({ multipleOf: 0.01 });

/** Query-string boolean: `true`/`false`/`1`/`0`. */
export const QueryBool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .meta({ type: 'boolean' } as Record<string, unknown>);

export const Phone = z.string().trim().min(7).max(20).meta({ example: '+255712345678', description: '`+255…` or `0…`' });
export const Email = z.email().trim().toLowerCase().max(254);

/** Password rule of design §3: at least 8 characters with a letter and a digit. */
export const Password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200)
  .regex(/[A-Za-z]/, 'must contain a letter')
  .regex(/\d/, 'must contain a digit');

export const Role = z.enum(['owner', 'manager', 'staff', 'admin']);
export type Role = z.infer<typeof Role>;
/**
 * What a manager or staff member may do beyond selling, each granted by a flag on the user
 * (`PERMISSION_FLAG`); an owner holds them all. The role only sets the flags' defaults: on for a
 * manager, off for staff (design §3: "permission flags decide, the role sets defaults").
 * - `pharmacy`: batch corrections, quarantine, disposal, recalls and the pharmacy registers.
 * - `credit`: customers' credit limits, writing off debts, removing customers.
 * - `stock`: prices, stock adjustments, removing products.
 * - `suppliers`: marking deliveries paid by hand, removing suppliers.
 */
export const Permission = z.enum(['refund', 'discount', 'reports', 'pharmacy', 'credit', 'stock', 'suppliers']);
export type Permission = z.infer<typeof Permission>;
/** The user flag (a column, and a field of the staff routes) that grants each permission. */
export const PERMISSION_FLAG = {
  refund: 'can_refund',
  discount: 'can_discount',
  reports: 'can_view_reports',
  pharmacy: 'can_manage_pharmacy',
  credit: 'can_manage_credit',
  stock: 'can_manage_stock',
  suppliers: 'can_manage_suppliers',
} as const satisfies Record<Permission, string>;
export type PermissionFlag = (typeof PERMISSION_FLAG)[Permission];
/** What someone without a permission is told, by the server and the till alike. */
export const PERMISSION_REFUSAL: Record<Permission, string> = {
  refund: 'you are not allowed to give refunds',
  discount: 'you are not allowed to give discounts',
  reports: 'you are not allowed to view reports',
  pharmacy: 'you are not allowed to manage pharmacy stock or registers',
  credit: 'you are not allowed to manage customer credit',
  stock: 'you are not allowed to change prices or stock',
  suppliers: 'you are not allowed to manage suppliers',
};
/** The permissions a user's role and flags (stored as 0/1 or booleans) give. */
export function permissionsOf(role: string, flags: Partial<Record<PermissionFlag, number | boolean | null>>): Permission[] {
  if (role === 'owner') return [...Permission.options];
  return Permission.options.filter((p) => Number(flags[PERMISSION_FLAG[p]] ?? 0) === 1);
}
/** Whether a user holds a permission: an owner holds every one, anyone else what their flags grant. */
export function holdsPermission(user: { role?: string; perms?: readonly string[] } | null | undefined, perm: Permission): boolean {
  return user?.role === 'owner' || (user?.perms ?? []).includes(perm);
}
/** A list filter on `is_active`: `active` (true) or `inactive` (false). */
export const ActiveFilter = z.enum(['active', 'inactive']);
export const Shift = z.enum(['morning', 'evening', 'full_day', 'weekend']);
export const EmploymentStatus = z.enum(['active', 'on_leave', 'inactive']);
export const BusinessTypeSlug = z.enum(['retail', 'wholesale', 'retail_wholesale', 'pharmacy']);
export type BusinessTypeSlug = z.infer<typeof BusinessTypeSlug>;
