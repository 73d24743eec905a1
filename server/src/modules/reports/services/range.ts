/** Report periods and schedule times, as calendar arithmetic in the organisation's time zone. */
import type { RangePreset, ReportFrequency } from '@duka/shared';
import { addDays, localDate, startOfLocalDay } from '../../../lib/time.js';

export interface Period {
  /** Local dates, inclusive. */
  from: string;
  to: string;
  /** Instants [start, end). */
  start: number;
  end: number;
}

export function periodOf(from: string, to: string, tz: string): Period {
  return { from, to, start: startOfLocalDay(from, tz), end: startOfLocalDay(addDays(to, 1), tz) };
}

/** The preset as the local days ending on `today` (inclusive). */
export function presetPeriod(preset: RangePreset, today: string, tz: string): Period {
  const from =
    preset === 'month'
      ? `${today.slice(0, 7)}-01`
      : preset === 'ytd'
        ? `${today.slice(0, 4)}-01-01`
        : addDays(today, -(Number(preset.slice(0, -1)) - 1));
  return periodOf(from, today, tz);
}

/** The period of POST /reports/generate: a preset, explicit dates, or the last 30 days. */
export function requestedPeriod(q: { range?: RangePreset; date_from?: string; date_to?: string }, now: number, tz: string): Period {
  const today = localDate(now, tz);
  if (q.range) return presetPeriod(q.range, today, tz);
  if (q.date_from || q.date_to) {
    const to = q.date_to ?? today;
    return periodOf(q.date_from ?? addDays(to, -29), to, tz);
  }
  return presetPeriod('30d', today, tz);
}

/** Scheduled reports go out at this local time. */
export const SEND_HOUR = 7;

/**
 * The first send time strictly after `after`: daily at 07:00 local, weekly on Monday at 07:00,
 * monthly on the 1st at 07:00.
 */
export function nextRunAt(frequency: ReportFrequency, after: number, tz: string): number {
  const at = (date: string) => startOfLocalDay(date, tz) + SEND_HOUR * 3_600_000;
  let date = localDate(after, tz);
  for (let i = 0; i < 64; i++, date = addDays(date, 1)) {
    if (at(date) <= after) continue;
    if (frequency === 'daily') return at(date);
    if (frequency === 'weekly' && new Date(`${date}T00:00:00Z`).getUTCDay() === 1) return at(date);
    if (frequency === 'monthly' && date.endsWith('-01')) return at(date);
  }
  throw new Error('no send time found');
}
