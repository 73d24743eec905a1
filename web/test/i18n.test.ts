/** The dictionaries (web/src/i18n.ts): every string in both languages, placeholders filled. */
import { PaymentMethod } from '@duka/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { lang, t } from '../src/i18n.js';

describe('the dictionary', () => {
  afterEach(() => lang.set('en'));

  it('fills placeholders, in the chosen language', () => {
    lang.set('en');
    expect(t('status.pending', { n: 3 })).toBe('3 waiting to send');
    lang.set('sw');
    expect(t('status.pending', { n: 3 })).toBe('3 zinasubiri kutumwa');
    expect(t('pay.charge', { total: 'TZS 4,500' })).toBe('Lipisha TZS 4,500');
  });

  it('names every payment method of the shared list in both languages', () => {
    for (const l of ['en', 'sw'] as const) {
      lang.set(l);
      for (const m of PaymentMethod.options) expect(t(`pay.method.${m}`)).not.toBe('');
    }
    lang.set('sw');
    expect(PaymentMethod.options.map((m) => t(`pay.method.${m}`))).toEqual(['Taslimu', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Benki', 'Mkopo']);
  });
});
