/** The money conversions of shared/src/money.ts, for the server's modules. */
export { fromBasisPoints, fromCents, toBasisPoints, toCents } from '@duka/shared';
