/** The money conversions of shared/src/money.ts, for the SDK's modules. */
export { fromCents, toBasisPoints, toCents } from '@duka/shared';
