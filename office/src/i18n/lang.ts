/**
 * The owner's language, English or Swahili, and the dictionaries each screen defines beside
 * itself. A screen's Swahili dictionary is typed by its English one, so a string missing in one
 * language fails the typecheck. The choice is kept in localStorage.
 */
import { EAT } from '@duka/shared';
import { signal } from '@preact/signals';

export type Lang = 'en' | 'sw';
const STORAGE_KEY = 'duka.office.lang';

function initialLang(): Lang {
  const kept = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (kept === 'en' || kept === 'sw') return kept;
  return globalThis.navigator?.language?.toLowerCase().startsWith('sw') ? 'sw' : 'en';
}

export const lang = signal<Lang>(initialLang());

export function setLang(next: Lang): void {
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  lang.value = next;
}

export type Params = Record<string, string | number>;
export type Translate<K extends string> = ((key: K, params?: Params) => string) & {
  /** Whether `key` is one of this dictionary's (a key made at run time, e.g. from an error code). */
  has(key: string): key is K;
};

/**
 * The `t` of one dictionary: the string for `key` in the chosen language, `{name}` placeholders
 * filled from `params`. Reading `lang.value` subscribes the rendering component to a change of language.
 */
export function messages<const E extends Record<string, string>>(en: E, sw: { [K in keyof E]: string }): Translate<keyof E & string> {
  const dictionaries: Record<Lang, Record<string, string>> = { en, sw };
  const t = (key: string, params: Params = {}) =>
    dictionaries[lang.value][key]!.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  return Object.assign(t, { has: (key: string): key is keyof E & string => Object.hasOwn(en, key) });
}

const locale = () => (lang.value === 'sw' ? 'sw-TZ' : 'en-GB');

/** Shillings as the owner reads them: whole, with thousands separated. */
export const tsh = (amount: number | string | null | undefined): string =>
  amount == null ? '–' : `TSh ${Math.round(Number(amount)).toLocaleString(locale())}`;

/** A count or quantity, as written in the chosen language. */
export const num = (n: number | string | null | undefined): string => (n == null ? '–' : Number(n).toLocaleString(locale()));

/** A timestamp on the shop's clock (East Africa Time), short. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short', timeZone: EAT });
}

/** Today's date on the shop's clock, YYYY-MM-DD, as the API's date filters take it. */
export function today(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return d.toLocaleDateString('en-CA', { timeZone: EAT });
}
