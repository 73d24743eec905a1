/**
 * Today's local date (YYYY-MM-DD) in the organisation's time zone, as the API counts its days (a
 * period's dates from it are the shared `periodRange`'s).
 */

export function localDate(now: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Dar_es_Salaam', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      now,
    );
  }
}
