/** The API speaks TZS with at most 2 decimals; the pricing function and the replica's counters speak cents. */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
/** A percentage (18, 12.5) as basis points (1800, 1250). */
export const toBasisPoints = (percent: number): number => Math.round(percent * 100);
