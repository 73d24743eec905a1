import { describe, expect, it } from 'vitest';
import { MobileNetwork } from './integrations.js';
import { PaymentMethod } from './payment-methods.js';
import { parseTzMobile, TzMobileNumber, walletOf } from './msisdn.js';

const SAME = { ok: true, e164: '+255712345678', national: '0712345678', digits: '255712345678' };

describe('parseTzMobile', () => {
  it.each([
    '0712345678',
    '0712 345 678',
    '712345678',
    '712 345 678',
    '+255712345678',
    '+255 712 345 678',
    '255712345678',
    '+255 (0)712 345 678',
    '+2550712345678',
    '255 0712 345678',
    '0712-345-678',
    '0712.345.678',
    '(0712) 345678',
    '00255712345678',
    '000255712345678',
    '  0712 345 678  ',
    '0712\u00a0345\u00a0678',
  ])('%j is +255712345678', (input) => {
    expect(parseTzMobile(input)).toEqual(SAME);
  });

  it.each([
    ['', 'empty', 'is empty'],
    ['  - ', 'empty', 'is empty'],
    ['0712 345 67a', 'invalid_characters', 'may hold only digits, spaces, dashes, dots, brackets and a leading +'],
    ['0712+345678', 'invalid_characters', 'may hold only digits, spaces, dashes, dots, brackets and a leading +'],
    ['071234567', 'too_short', 'is too short: a mobile number has 9 digits after 0'],
    ['71234567', 'too_short', 'is too short: a mobile number has 9 digits after 0'],
    ['+25571234567', 'too_short', 'is too short: a mobile number has 9 digits after 0'],
    ['07123456789', 'too_long', 'is too long: a mobile number has 9 digits after 0'],
    ['7123456789', 'too_long', 'is too long: a mobile number has 9 digits after 0'],
    ['+2557123456789', 'too_long', 'is too long: a mobile number has 9 digits after 0'],
    ['+254712345678', 'not_tanzanian', 'is not a Tanzanian number (+255)'],
    ['+1 415 555 0100', 'not_tanzanian', 'is not a Tanzanian number (+255)'],
    ['254712345678', 'not_tanzanian', 'is not a Tanzanian number (+255)'],
    ['00254712345678', 'not_tanzanian', 'is not a Tanzanian number (+255)'],
    // Dar es Salaam landline, an unassigned 064, a toll-free number.
    ['022 212 3456', 'not_mobile', 'is not a mobile number (06… or 07…)'],
    ['+255222123456', 'not_mobile', 'is not a mobile number (06… or 07…)'],
    ['0641234567', 'not_mobile', 'is not a mobile number (06… or 07…)'],
    ['0800123456', 'not_mobile', 'is not a mobile number (06… or 07…)'],
  ])('%j: %s', (input, code, message) => {
    expect(parseTzMobile(input)).toEqual({ ok: false, code, message });
  });

  it('takes every 06x and 07x range but 064, and no other', () => {
    const mobile = [];
    for (let p = 10; p < 100; p++) if (parseTzMobile(`0${p}1234567`).ok) mobile.push(p);
    expect(mobile).toEqual([60, 61, 62, 63, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]);
  });
});

describe('walletOf', () => {
  it.each([
    ['0741 000 111', 'Vodacom', 'M-Pesa', 'mpesa', 'M-Pesa'],
    ['+255754000111', 'Vodacom', 'M-Pesa', 'mpesa', 'M-Pesa'],
    ['255764000111', 'Vodacom', 'M-Pesa', 'mpesa', 'M-Pesa'],
    ['0684000111', 'Airtel', 'Airtel Money', 'airtel', 'Airtel Money'],
    ['0694000111', 'Airtel', 'Airtel Money', 'airtel', 'Airtel Money'],
    ['0784000111', 'Airtel', 'Airtel Money', 'airtel', 'Airtel Money'],
    ['0654000111', 'Yas', 'Mixx by Yas', 'tigo', 'Tigo Pesa'],
    ['0674000111', 'Yas', 'Mixx by Yas', 'tigo', 'Tigo Pesa'],
    ['0714000111', 'Yas', 'Mixx by Yas', 'tigo', 'Tigo Pesa'],
    ['0774000111', 'Yas', 'Mixx by Yas', 'tigo', 'Tigo Pesa'],
    ['0614000111', 'Halotel', 'HaloPesa', 'halopesa', null],
    ['0624000111', 'Halotel', 'HaloPesa', 'halopesa', null],
    ['0734000111', 'TTCL', 'T-Pesa', null, null],
  ])('%s is %s %s', (number, operator, wallet, network, method) => {
    expect(walletOf(number)).toEqual({ operator, wallet, network, method });
  });

  it('answers null for a prefix one source or disputed sources name, and for what is not a mobile', () => {
    for (const number of ['0604000111', '0634000111', '0664000111', '0704000111', '0724000111', '0794000111'])
      expect(walletOf(number), number).toBeNull();
    for (const number of ['', '07412', '+254712345678', '0222123456']) expect(walletOf(number), number).toBeNull();
  });

  it("names only the project's own networks and payment methods", () => {
    for (let p = 60; p < 80; p++) {
      const wallet = walletOf(`0${p}4000111`);
      if (wallet?.network) expect(MobileNetwork.options).toContain(wallet.network);
      if (wallet?.method) expect(PaymentMethod.options).toContain(wallet.method);
    }
  });
});

describe('TzMobileNumber', () => {
  it('reads any form as +255…', () => {
    expect(TzMobileNumber.parse('0712 345 678')).toBe('+255712345678');
    expect(TzMobileNumber.parse('255 712 345 678')).toBe('+255712345678');
  });

  it("refuses a bad number with parseTzMobile's message", () => {
    const result = TzMobileNumber.safeParse('0222123456');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['is not a mobile number (06… or 07…)']);
  });
});
