/** A fiscal receipt's date, time and Z number are EAT's, whatever zone the tablet is in (web/src/fiscal.ts). */
import { describe, expect, it } from 'vitest';
import { fiscalStamp } from '../src/fiscal.js';

describe('fiscalStamp', () => {
  it('gives the instant in EAT (UTC+3), the Z number being its day', () => {
    expect(fiscalStamp('2026-11-24T11:05:09.000Z')).toEqual({ date: '2026-11-24', time: '14:05:09', znum: '20261124' });
    // Late evening UTC is already the next day in Dar es Salaam.
    expect(fiscalStamp('2026-11-24T21:30:05.000Z')).toEqual({ date: '2026-11-25', time: '00:30:05', znum: '20261125' });
  });
});
