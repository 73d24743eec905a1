/** The dictionaries (web/src/i18n.ts): every string in both languages, placeholders filled. */
import { ConflictKind, PaymentMethod, parseTzMobile } from '@duka/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime, lang, type MessageKey, shopZone, t } from '../src/i18n.js';

describe('the dictionary', () => {
  afterEach(() => {
    lang.set('en');
    shopZone.set('Africa/Dar_es_Salaam');
  });

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
    expect(PaymentMethod.options.map((m) => t(`pay.method.${m}`))).toEqual([
      'Taslimu',
      'M-Pesa',
      'Tigo Pesa',
      'Airtel Money',
      'Benki',
      'Mkopo',
    ]);
  });

  it("writes dates on the shop's clock, not the tablet's", () => {
    // 21:30 UTC is 00:30 the next day in Dar es Salaam, whatever zone this process runs in.
    expect(formatTime('2026-11-20T21:30:00.000Z')).toBe('21/11/2026, 00:30');
    shopZone.set('Africa/Lagos');
    expect(formatTime('2026-11-20T21:30:00.000Z')).toBe('20/11/2026, 22:30');
  });

  it('names every conflict kind of the shared list in both languages', () => {
    for (const l of ['en', 'sw'] as const) {
      lang.set(l);
      const labels = ConflictKind.options.map((k) => t(`conflict.kind.${k}`));
      expect(labels.every((x) => x !== '' && !x.startsWith('conflict.'))).toBe(true);
      expect(new Set(labels).size).toBe(ConflictKind.options.length);
    }
    lang.set('en');
    expect(t('conflict.kind.stale_price')).toBe('Sold at an old price');
    lang.set('sw');
    expect(t('conflict.kind.oversold')).toBe('Imeuzwa zaidi ya stoo');
  });

  it("says every fault of a typed mobile number in both languages (parseTzMobile's codes)", () => {
    const typed = ['', '0754-12a', '0754', '0754 123 4567', '+254 712 345 678', '0641 234 567'];
    const codes = typed.map((x) => {
      const p = parseTzMobile(x);
      return p.ok ? 'ok' : p.code;
    });
    expect(codes).toEqual(['empty', 'invalid_characters', 'too_short', 'too_long', 'not_tanzanian', 'not_mobile']);
    for (const l of ['en', 'sw'] as const) {
      lang.set(l);
      const said = codes.map((c) => t(`mm.phone.${c}` as MessageKey));
      expect(said.every((x) => x !== '' && !x.startsWith('mm.'))).toBe(true);
      expect(new Set(said).size).toBe(codes.length);
    }
    lang.set('sw');
    expect(t('mm.phone.not_tanzanian')).toBe('Si namba ya Tanzania (+255)');
    expect(t('mm.waiting', { phone: '0754 123 456', wallet: 'M-Pesa', amount: 'TZS 12,500' })).toBe(
      'Inasubiri mteja athibitishe kwenye 0754 123 456 · M-Pesa · TZS 12,500',
    );
  });

  it('names a paired printer that cannot be reached, apart from none connected, in both languages', () => {
    lang.set('en');
    expect(t('printer.unreachable', { name: 'XP-58' })).toBe(
      'The printer “XP-58” is not reachable: check that it is switched on and plugged in (or, for Bluetooth, near).',
    );
    expect(t('printer.not_connected')).toBe('No printer was connected.');
    lang.set('sw');
    expect(t('printer.unreachable', { name: 'XP-58' })).toBe(
      'Printa “XP-58” haipatikani: hakikisha imewashwa na imechomekwa (au, kwa Bluetooth, iko karibu).',
    );
  });
});
