/** Tanzanian phone numbers: `+255712…` and `0712…` are one number, kept in E.164. */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ValidationError } from './errors.js';

export function toE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), 'TZ');
  return parsed?.isValid() ? parsed.number : null;
}

export function normalisePhone(input: string, field = 'phone'): string {
  const e164 = toE164(input);
  if (!e164) throw new ValidationError(field, 'is not a valid phone number', 'si namba ya simu sahihi');
  return e164;
}

/** What SMS gateways take as a recipient: international digits without '+' (`255712…`). */
export function toSmsRecipient(input: string): string | null {
  return toE164(input)?.slice(1) ?? null;
}

/** `0712 345`, `255712…` and `+255712…` as the E.164 fragment stored phones contain; null when not phone-like. */
export function phoneFragment(text: string): string | null {
  const compact = text.replace(/[\s\-()]/g, '');
  if (!/^\+?\d{3,}$/.test(compact)) return null;
  if (compact.startsWith('0')) return `+255${compact.slice(1)}`;
  if (compact.startsWith('255')) return `+${compact}`;
  return compact;
}
