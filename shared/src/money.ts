/**
 * Money is integer cents in storage and in the pricing function, and a number with at most 2
 * decimals (TZS) in the API; percentages (tax rates, discounts) are integer basis points.
 */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
export const toBasisPoints = (percent: number): number => Math.round(percent * 100);
export const fromBasisPoints = (bp: number): number => bp / 100;
