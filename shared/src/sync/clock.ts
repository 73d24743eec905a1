/**
 * How far a till's clock may be off before anyone is told (issue 37). The till learns the server's
 * time at every sync and warns its cashier past this; the server books a pushed sale dated past it
 * (in the future, or before a sale the till had already sent) at its own receipt time and flags it.
 * Five minutes: a tablet's clock drifts seconds a day, a request takes seconds, and nothing a shop
 * reports is finer than the hour; a clock off by more was set wrong.
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

/** The server's time less the till's, ms, from the server's time in an answer to a request the till sent at `sentAt` and got at `receivedAt` (its clock). */
export function clockOffset(serverTime: string, sentAt: number, receivedAt: number): number {
  // The server read its clock somewhere in the round trip: its middle is the best guess.
  return Date.parse(serverTime) - Math.round((sentAt + receivedAt) / 2);
}

/** Whether a till whose clock is `offsetMs` off the server's should be told. */
export const clockWrong = (offsetMs: number): boolean => Math.abs(offsetMs) > CLOCK_TOLERANCE_MS;
