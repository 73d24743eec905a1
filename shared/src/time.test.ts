import { describe, expect, it } from 'vitest';
import { addDays, EAT, lastLocalDays, localDate, localDayRange, localMonthRange, localTime, startOfLocalDay, todayRange } from './time.js';

const utc = (iso: string) => Date.parse(`${iso}Z`);

describe('local days in an organisation time zone', () => {
  it('an EAT day runs from 21:00 UTC the day before to 21:00 UTC on the day', () => {
    expect(startOfLocalDay('2026-03-15', EAT)).toBe(utc('2026-03-14T21:00:00'));
    expect(localDayRange('2026-03-15', EAT)).toEqual({ from: 1_773_522_000_000, to: 1_773_608_400_000 });
    // Across a month and a year end.
    expect(localDayRange('2026-12-31', EAT)).toEqual({ from: utc('2026-12-30T21:00:00'), to: utc('2026-12-31T21:00:00') });
    expect(startOfLocalDay('2026-03-01', EAT)).toBe(utc('2026-02-28T21:00:00'));
  });

  it('an instant belongs to the EAT date and time three hours ahead of UTC', () => {
    expect(localDate(utc('2026-03-14T20:59:59.999'), EAT)).toBe('2026-03-14');
    expect(localDate(utc('2026-03-14T21:00:00'), EAT)).toBe('2026-03-15');
    expect(localTime(utc('2026-03-14T21:00:00'), EAT)).toBe('00:00:00');
    expect(localTime(utc('2026-03-15T09:05:07.900'), EAT)).toBe('12:05:07');
    expect(todayRange(utc('2026-03-15T20:59:00'), EAT)).toEqual(localDayRange('2026-03-15', EAT));
    expect(todayRange(utc('2026-03-15T21:00:00'), EAT)).toEqual(localDayRange('2026-03-16', EAT));
  });

  it('a zone the organisation sets: its own midnight, a daylight-saving day 23 or 25 hours long', () => {
    expect(localDayRange('2026-07-01', 'Africa/Lagos')).toEqual({ from: utc('2026-06-30T23:00:00'), to: utc('2026-07-01T23:00:00') });
    const spring = localDayRange('2026-03-29', 'Europe/London');
    expect(spring).toEqual({ from: utc('2026-03-29T00:00:00'), to: utc('2026-03-29T23:00:00') });
    expect(localDayRange('2026-10-25', 'Europe/London')).toEqual({ from: utc('2026-10-24T23:00:00'), to: utc('2026-10-26T00:00:00') });
    // Sydney leaves summer time at 03:00 on 5 April: that day starts on summer time (+11) and lasts 25 hours.
    expect(localDayRange('2026-04-05', 'Australia/Sydney')).toEqual({ from: utc('2026-04-04T13:00:00'), to: utc('2026-04-05T14:00:00') });
  });

  it('months and runs of days are made of the same bounds', () => {
    expect(localMonthRange(utc('2026-02-28T21:30:00'), EAT)).toEqual({
      month: '2026-03',
      from: utc('2026-02-28T21:00:00'),
      to: utc('2026-03-31T21:00:00'),
    });
    expect(lastLocalDays(utc('2026-03-01T06:00:00'), EAT, 3)).toEqual({
      dates: ['2026-02-27', '2026-02-28', '2026-03-01'],
      bounds: ['2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01'].map((d) => utc(`${d}T21:00:00`)),
    });
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
});
