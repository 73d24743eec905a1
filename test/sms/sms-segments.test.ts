/** What a text costs in SMS segments, and the recipient form the gateways take. */
import { describe, expect, it } from 'vitest';
import { toSmsRecipient } from '../../server/src/lib/phone.js';
import { countSegments } from '../../server/src/messaging/sms/segments.js';

describe('countSegments', () => {
  it.each([
    ['', 'GSM-7', 0],
    ['a'.repeat(160), 'GSM-7', 1],
    ['a'.repeat(161), 'GSM-7', 2],
    ['a'.repeat(306), 'GSM-7', 2],
    ['a'.repeat(307), 'GSM-7', 3],
    // Extension characters take two septets: 80 euro signs fill one SMS, 81 need two.
    ['€'.repeat(80), 'GSM-7', 1],
    ['€'.repeat(81), 'GSM-7', 2],
    ['Habari Amina, deni lako ni TZS 12,500. Tafadhali lipa kabla ya Ijumaa. Asante!', 'GSM-7', 1],
    // One curly quote makes the whole text UCS-2: 70 in one SMS, 67 per part.
    ['Asante kwa “ununuzi”', 'UCS-2', 1],
    [`${'a'.repeat(69)}’`, 'UCS-2', 1],
    [`${'a'.repeat(70)}’`, 'UCS-2', 2],
    [`${'a'.repeat(133)}’`, 'UCS-2', 2],
    [`${'a'.repeat(134)}’`, 'UCS-2', 3],
    // An emoji is two UTF-16 units.
    ['😀'.repeat(35), 'UCS-2', 1],
    ['😀'.repeat(36), 'UCS-2', 2],
  ])('%# %j', (text, encoding, segments) => {
    expect(countSegments(text)).toEqual({ encoding, segments });
  });
});

describe('toSmsRecipient', () => {
  it('gives 255… digits for any way a Tanzanian number is written, and null for a non-number', () => {
    expect(['0712 345 678', '+255712345678', '255712345678'].map(toSmsRecipient)).toEqual(['255712345678', '255712345678', '255712345678']);
    expect(toSmsRecipient('12345')).toBeNull();
  });
});
