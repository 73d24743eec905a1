/** Calendar days on the till: the organisation's day, wherever the till's own clock is set. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `YYYY-MM-DD` of the instant in the IANA time zone `tz` (the organisation's `timezone`), as the
 * server's `localDate` answers it: a sale's "today" for expiry and prescription dates is the day the
 * sale was made in the shop's time zone, not the day it is pushed.
 */
export function localDate(ms: number, tz: string): string {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}
