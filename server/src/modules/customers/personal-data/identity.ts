/**
 * How one person shows up in the shop's records: their names, phones, emails and TINs as stored,
 * and the texts that name them rewritten without them. Phones are matched in each form a record
 * may hold (`+255712…`, `255712…` as SMS gateways take it, `0712…` as typed).
 */
import { ERASED_CUSTOMER_NAME } from '@duka/shared';
import { toE164 } from '../../../lib/phone.js';

/**
 * The audit trail names a customer as they were named then ("Added customer Neema", later
 * corrected): the names a customer has had are read back from it, so an erasure finds them all.
 */
export const AUDIT_NAMING = { 'customer.create': 'Added customer ', 'customer.update': 'Updated customer ' } as const;

/** The names a customer had, from their audit rows' descriptions. */
export function namesInAudit(rows: Array<{ action: string; description: string }>): string[] {
  return rows.flatMap(({ action, description }) => {
    const prefix = AUDIT_NAMING[action as keyof typeof AUDIT_NAMING];
    return prefix && description.startsWith(prefix) ? [description.slice(prefix.length)] : [];
  });
}

/** What stands in for a phone, email or TIN in an erased text. */
export const ERASED_CONTACT = '[erased]';

export interface Identity {
  names: string[];
  phones: string[];
  emails: string[];
  tins: string[];
}

export interface Needle {
  /** As a record holds it: what a LIKE looks for. */
  text: string;
  pattern: RegExp;
  replacement: string;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The values given, trimmed, once each; the markers an earlier erasure left are nobody's. */
const present = (values: Array<string | null | undefined>) => [
  ...new Set(values.map((v) => v?.trim()).filter((v): v is string => !!v && v !== ERASED_CONTACT && v !== ERASED_CUSTOMER_NAME)),
];

/** Every form of a phone a record may hold. */
export function phoneForms(phone: string): string[] {
  const e164 = toE164(phone);
  if (!e164) return [phone];
  return [e164, e164.slice(1), `0${e164.slice(4)}`];
}

export function identityOf(parts: {
  names?: Array<string | null>;
  phones?: Array<string | null>;
  emails?: Array<string | null>;
  tins?: Array<string | null>;
}): Identity {
  return {
    names: present(parts.names ?? []),
    phones: present((parts.phones ?? []).flatMap((p) => (p && p !== ERASED_CONTACT ? phoneForms(p) : []))),
    emails: present(parts.emails ?? []),
    tins: present(parts.tins ?? []),
  };
}

export const isEmpty = (who: Identity) => !who.names.length && !who.phones.length && !who.emails.length && !who.tins.length;

/**
 * Longest first, so `+255712…` goes whole before its `255712…` could match inside it. A name is
 * matched as a whole word in any case (`Ali` never inside `Alice`); a number never inside a longer one.
 */
export function needlesOf(who: Identity): Needle[] {
  const word = (s: string) => new RegExp(`(?<![\\p{L}\\p{N}])${literal(s)}(?![\\p{L}\\p{N}])`, 'giu');
  const number = (s: string) => new RegExp(`(?<!\\d)${literal(s)}(?!\\d)`, 'g');
  const needles: Needle[] = [
    ...who.names.map((text) => ({ text, pattern: word(text), replacement: ERASED_CUSTOMER_NAME })),
    ...who.phones.map((text) => ({ text, pattern: number(text), replacement: ERASED_CONTACT })),
    ...who.tins.map((text) => ({ text, pattern: number(text), replacement: ERASED_CONTACT })),
    ...who.emails.map((text) => ({ text, pattern: new RegExp(literal(text), 'gi'), replacement: ERASED_CONTACT })),
  ];
  return needles.sort((a, b) => b.text.length - a.text.length);
}

/** `text` with every mention of the person replaced. */
export function scrub(text: string, needles: Needle[]): string;
export function scrub(text: string | null, needles: Needle[]): string | null;
export function scrub(text: string | null, needles: Needle[]): string | null {
  if (text == null) return text;
  return needles.reduce((out, n) => out.replace(n.pattern, n.replacement), text);
}
