/**
 * Swahili messages for zod's issues, in zod's own locale shape (`zod/v4/locales/en.js`: a default
 * export giving `{ localeError }`), written like the English ones of `../zod-setup.ts`: to read
 * after a field name (`selling_price lazima iwe angalau 0`). zod has no Swahili locale of its own.
 *
 * `zod-setup.ts` sets the English messages as zod's `customError`, which outranks a locale, so a
 * caller that wants Swahili passes it per parse, never as a global switch:
 * `schema.safeParse(input, { error: sw().localeError })`. The server translates the issues of a
 * parse already made instead (server/src/lib/language.ts), by code and params, as this does.
 * No zod import: a browser app that shows these need not carry zod.
 */

/** What zod hands a locale: an issue's code and params, and the input it was raised on. */
export interface IssueForLocale {
  readonly code: string;
  readonly input?: unknown;
  readonly [param: string]: unknown;
}

const TYPES: Record<string, string> = {
  string: 'maandishi',
  number: 'namba',
  int: 'namba kamili',
  bigint: 'namba kamili',
  boolean: 'kweli au si kweli (true/false)',
  array: 'orodha',
  object: 'kitu (object)',
  date: 'tarehe',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  email: 'barua pepe sahihi',
  url: 'anwani sahihi ya mtandao (URL)',
  uuid: 'UUID sahihi',
  uuidv4: 'UUID sahihi',
  uuidv6: 'UUID sahihi',
  guid: 'UUID sahihi',
  date: 'tarehe sahihi (YYYY-MM-DD)',
  datetime: 'tarehe na saa sahihi (ISO 8601)',
  time: 'saa sahihi (HH:MM)',
  duration: 'muda sahihi (ISO 8601)',
  e164: 'namba ya simu sahihi (+255…)',
  ipv4: 'anwani sahihi ya IP',
  ipv6: 'anwani sahihi ya IP',
  base64: 'base64 sahihi',
  base64url: 'base64url sahihi',
  jwt: 'JWT sahihi',
};

/** Units of a size, by the issue's origin: characters, items, bytes. */
const UNITS: Record<string, { unit: string; atMost: string }> = {
  string: { unit: 'herufi', atMost: 'zisizozidi' },
  array: { unit: 'vitu', atMost: 'visivyozidi' },
  set: { unit: 'vitu', atMost: 'visivyozidi' },
  map: { unit: 'vitu', atMost: 'visivyozidi' },
  file: { unit: 'baiti', atMost: 'zisizozidi' },
};

const list = (values: unknown, sep = ', ') => (Array.isArray(values) ? values.map(String).join(sep) : String(values));

/** The Swahili message for one issue. */
export function swahiliIssueMessage(issue: IssueForLocale): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'inahitajika';
      return `lazima iwe ${TYPES[String(issue.expected)] ?? String(issue.expected)}`;
    case 'too_small': {
      const sized = UNITS[String(issue.origin)];
      const n = String(issue.minimum);
      if (sized) {
        if (issue.exact) return `lazima iwe na ${sized.unit} ${n} hasa`;
        if (sized.unit === 'herufi' && n === '1') return 'haiwezi kuwa tupu';
        return `lazima iwe na ${sized.unit} angalau ${n}`;
      }
      return issue.inclusive === false ? `lazima iwe zaidi ya ${n}` : `lazima iwe angalau ${n}`;
    }
    case 'too_big': {
      const sized = UNITS[String(issue.origin)];
      const n = String(issue.maximum);
      if (sized) return issue.exact ? `lazima iwe na ${sized.unit} ${n} hasa` : `lazima iwe na ${sized.unit} ${sized.atMost} ${n}`;
      return issue.inclusive === false ? `lazima iwe chini ya ${n}` : `isizidi ${n}`;
    }
    case 'invalid_value': {
      const values = Array.isArray(issue.values) ? issue.values : [];
      return values.length === 1 ? `lazima iwe ${String(values[0])}` : `lazima iwe mojawapo ya: ${list(values)}`;
    }
    case 'invalid_format': {
      const format = String(issue.format);
      if (format === 'starts_with') return `lazima ianze na "${String(issue.prefix)}"`;
      if (format === 'ends_with') return `lazima iishe na "${String(issue.suffix)}"`;
      if (format === 'includes') return `lazima iwe na "${String(issue.includes)}"`;
      if (format === 'regex') return 'haiko katika muundo unaotakiwa';
      return `lazima iwe ${FORMATS[format] ?? `${format} sahihi`}`;
    }
    case 'not_multiple_of':
      return `lazima igawanyike kwa ${String(issue.divisor)}`;
    case 'unrecognized_keys': {
      const keys = Array.isArray(issue.keys) ? issue.keys : [];
      return `${keys.length > 1 ? 'sehemu zisizojulikana' : 'sehemu isiyojulikana'}: ${list(keys)}`;
    }
    case 'invalid_key':
      return 'ina ufunguo usio sahihi';
    case 'invalid_element':
      return 'ina kipengele kisicho sahihi';
    default:
      return 'si sahihi';
  }
}

/** zod's locale shape: `z.config(sw())` (where no customError is set) or `{ error: sw().localeError }` per parse. */
export default function sw(): { localeError: (issue: IssueForLocale) => string } {
  return { localeError: swahiliIssueMessage };
}
