/**
 * The customer's mobile number at the till (issue 38), and the wallet it most likely holds.
 *
 * `parseTzMobile` takes what a cashier types (`0712 345 678`, `712345678`, `+255712345678`,
 * `255712345678`, `+255 (0)712-345.678`, `00255…`) and answers the one number in three spellings, or
 * a code saying what is wrong. Its mobile range, 06x and 07x but not 064, is libphonenumber's for
 * TZ (libphonenumber-js 1.13, `(?:6[0-35-9]|7\d)\d{7}`), so a number it accepts is one the server's
 * general normaliser (server/src/lib/phone.ts `toE164`) accepts and spells the same way; that
 * normaliser stays where it is because it is a wider rule (any valid phone, landlines and foreign
 * numbers included, for customers, staff and shops), and test/payments/msisdn-agrees.test.ts holds
 * the two to each other.
 *
 * `walletOf` names the wallet from the prefix. Sources, checked 2025:
 * - google/libphonenumber resources/carrier/en/255.txt (61, 62 Viettel; 65, 67, 70, 71, 77 Yas;
 *   66, 68, 69, 78 Airtel; 73 Tanzania Telecom; 72, 74, 75, 76, 79 Vodacom; 63 Viettel);
 * - https://en.wikipedia.org/wiki/Telephone_numbers_in_Tanzania (61, 62 Halotel; 63 allocated to Amotel);
 * - https://habarika24.com/0699-ni-code-za-mtandao-gani-tanzania (Airtel 068, 069, 078; Vodacom 074,
 *   075, 076; Tigo 065, 067, 071; Halotel 061, 062; TTCL 073; Zantel 077);
 * - https://fursa24.com/?p=151, the one dissent: 069 Halotel, 0735 Airtel, 0740 TTCL, 066 Smile.
 * A prefix is mapped only where at least two sources agree: 069 goes to Airtel and 073 to TTCL
 * (libphonenumber and habarika24 against fursa24); 077 was Zantel's, which merged into Tigo, and
 * libphonenumber lists it under Yas (Tigo Pesa is now Mixx by Yas). 063, 066, 070, 072 and 079
 * answer null: one source only, or sources that disagree. Numbers are portable between operators,
 * so the answer is a default the cashier can change, never a rule.
 */
import { z } from 'zod';
import type { MobileNetwork } from './integrations.js';
import type { PaymentMethod } from './payment-methods.js';

/** One Tanzanian mobile number, three ways: `+255712345678`, `0712345678`, `255712345678`. */
export interface TzMobile {
  ok: true;
  /** What the server stores and the providers' APIs mostly take. */
  e164: string;
  /** How a Tanzanian writes and reads it. */
  national: string;
  /** International digits without `+` (what AzamPay, Selcom and the SMS gateways take). */
  digits: string;
}

export type TzMobileErrorCode = 'empty' | 'invalid_characters' | 'too_short' | 'too_long' | 'not_tanzanian' | 'not_mobile';

/** What is wrong with a typed number; the till shows its own words for `code`, the server `message`. */
export interface TzMobileError {
  ok: false;
  code: TzMobileErrorCode;
  message: string;
}

/** The national significant number of a Tanzanian mobile: nine digits, 06x or 07x, 064 unassigned. */
const MOBILE_NSN = /^(?:6[0-35-9]|7\d)\d{7}$/;
const NSN_LENGTH = 9;

const fail = (code: TzMobileErrorCode, message: string): TzMobileError => ({ ok: false, code, message });

export function parseTzMobile(input: string): TzMobile | TzMobileError {
  // Spaces, dashes, dots and brackets are how people group a number, never part of it.
  const compact = input.replace(/[\s\-.()]/g, '');
  if (compact === '') return fail('empty', 'is empty');
  if (!/^\+?\d+$/.test(compact)) return fail('invalid_characters', 'may hold only digits, spaces, dashes, dots, brackets and a leading +');

  let nsn: string;
  const international = compact.startsWith('+') ? compact.slice(1) : /^00/.test(compact) ? compact.replace(/^000?/, '') : null;
  if (international !== null) {
    if (!international.startsWith('255')) return fail('not_tanzanian', 'is not a Tanzanian number (+255)');
    // `+255 (0)712…`: the trunk 0 some people keep after the country code.
    nsn = international.slice(3).replace(/^0/, '');
  } else if (compact.startsWith('255') && compact.length > NSN_LENGTH) {
    nsn = compact.slice(3).replace(/^0/, '');
  } else if (compact.startsWith('0')) {
    nsn = compact.slice(1);
  } else if (compact.length > NSN_LENGTH + 1) {
    // Eleven digits or more without 0 or 255 in front: another country's code.
    return fail('not_tanzanian', 'is not a Tanzanian number (+255)');
  } else {
    nsn = compact;
  }

  if (nsn.length < NSN_LENGTH) return fail('too_short', `is too short: a mobile number has ${NSN_LENGTH} digits after 0`);
  if (nsn.length > NSN_LENGTH) return fail('too_long', `is too long: a mobile number has ${NSN_LENGTH} digits after 0`);
  if (!MOBILE_NSN.test(nsn)) return fail('not_mobile', 'is not a mobile number (06… or 07…)');
  return { ok: true, e164: `+255${nsn}`, national: `0${nsn}`, digits: `255${nsn}` };
}

/**
 * A request field holding the customer's mobile number: any form `parseTzMobile` takes, `+255…` after
 * parsing; a bad number is a 400 naming the field with `parseTzMobile`'s message.
 */
export const TzMobileNumber = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const parsed = parseTzMobile(value);
    if (parsed.ok) return parsed.e164;
    ctx.issues.push({ code: 'custom', message: parsed.message, input: value });
    return z.NEVER;
  })
  .meta({ example: '0712 345 678', description: 'A Tanzanian mobile number: `0712…`, `+255712…` or `255712…`' });

/** A mobile-money wallet as the till offers it. */
export interface MobileWallet {
  /** The operator whose SIM the prefix was issued for. */
  operator: 'Vodacom' | 'Airtel' | 'Yas' | 'Halotel' | 'TTCL';
  /** The wallet's name as customers know it (a brand, shown as is: not a payment method, which is `method`). */
  wallet: string;
  /** The network the billing drivers take; null where none of them offers this wallet. */
  network: MobileNetwork | null;
  /** The sale's payment method to preselect; null where the till has none for this wallet. */
  method: PaymentMethod | null;
}

const VODACOM: MobileWallet = { operator: 'Vodacom', wallet: 'M-Pesa', network: 'mpesa', method: 'M-Pesa' };
const AIRTEL: MobileWallet = { operator: 'Airtel', wallet: 'Airtel Money', network: 'airtel', method: 'Airtel Money' };
// Tigo Pesa is now Mixx by Yas; the payment method keeps the name the sales already carry.
const YAS: MobileWallet = { operator: 'Yas', wallet: 'Mixx by Yas', network: 'tigo', method: 'Tigo Pesa' };
const HALOTEL: MobileWallet = { operator: 'Halotel', wallet: 'HaloPesa', network: 'halopesa', method: null };
const TTCL: MobileWallet = { operator: 'TTCL', wallet: 'T-Pesa', network: null, method: null };

/** By the two digits after 0; a prefix missing here is unassigned or disputed (see the header). */
const WALLET_BY_PREFIX: Readonly<Record<string, MobileWallet>> = {
  '61': HALOTEL,
  '62': HALOTEL,
  '65': YAS,
  '67': YAS,
  '68': AIRTEL,
  '69': AIRTEL,
  '71': YAS,
  '73': TTCL,
  '74': VODACOM,
  '75': VODACOM,
  '76': VODACOM,
  '77': YAS,
  '78': AIRTEL,
};

/** The wallet a number most likely holds, in any form `parseTzMobile` takes; null when unknown or not a mobile. */
export function walletOf(number: string): MobileWallet | null {
  const parsed = parseTzMobile(number);
  if (!parsed.ok) return null;
  return WALLET_BY_PREFIX[parsed.national.slice(1, 3)] ?? null;
}
