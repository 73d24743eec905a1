/**
 * The units a product is sold in and how many counts one of them is, without the schemas: the
 * browser till's SQLite worker maps bootstrap rows with this and must not bundle zod for it.
 */
export const UNITS = ['piece', 'kg', 'g', 'l', 'ml', 'm'] as const;
export type UnitName = (typeof UNITS)[number];

export const isUnit = (value: unknown): value is UnitName => (UNITS as readonly unknown[]).includes(value);

/** Counts in one unit: a piece is one count; a measured unit is a thousand (kg → g, l → ml). */
export const unitScale = (unit: UnitName): 1 | 1000 => (unit === 'piece' ? 1 : 1000);
