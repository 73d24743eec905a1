/**
 * The till's mobile-number rule (shared parseTzMobile) and the server's general phone normaliser
 * (libphonenumber-js) agree: every number the first takes the second takes and spells the same, and
 * the first's mobile range is the library's own for Tanzania.
 */
import { parseTzMobile } from '@duka/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { toE164 } from '../../server/src/lib/phone.js';

describe('parseTzMobile and the server normaliser', () => {
  it('spell every accepted form of a number alike', () => {
    for (const input of [
      '0712 345 678',
      '712345678',
      '+255712345678',
      '255712345678',
      '+255 (0)712 345 678',
      '0654-321.000',
      '0712.345.678',
    ]) {
      const parsed = parseTzMobile(input);
      expect(parsed.ok, input).toBe(true);
      if (parsed.ok) expect(toE164(input), input).toBe(parsed.e164);
    }
  });

  it('take the same Tanzanian mobile ranges', () => {
    for (let p = 20; p < 100; p++) {
      const national = `0${p}4000111`;
      const library = parsePhoneNumberFromString(national, 'TZ');
      const mobile = library?.isValid() === true && library.getType() === 'MOBILE';
      expect(parseTzMobile(national).ok, national).toBe(mobile);
      if (mobile) expect(toE164(national)).toBe(parseTzMobile(national).ok && `+255${p}4000111`);
    }
  });
});
