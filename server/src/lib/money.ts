/**
 * Money is integer cents in the database and a number with at most 2 decimals in the API;
 * percentages (tax rates, discounts) are integer basis points in the database.
 */
export const toCents = (amount: number) => Math.round(amount * 100);
export const fromCents = (cents: number) => cents / 100;
export const toBasisPoints = (percent: number) => Math.round(percent * 100);
export const fromBasisPoints = (bp: number) => bp / 100;
