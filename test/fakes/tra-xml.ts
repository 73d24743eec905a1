/**
 * The TRA VFD envelope as the fake reads and writes it (docs/fiscal-wire.md): the signed payload
 * cut from the raw body byte for byte, SHA1withRSA signatures, an ordered element tree (flattened
 * pairs like PMTTYPE/PMTAMOUNT are only meaningful in document order), and amounts as strings with
 * exactly two decimals turned into integer cents without passing through a float.
 */
import { createSign, createVerify } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface El {
  tag: string;
  text: string;
  kids: El[];
}

/**
 * `<EFDMS><TAG>…</TAG><EFDMSSIGNATURE>…</EFDMSSIGNATURE></EFDMS>` with an optional XML
 * declaration and nothing else; the payload is the exact text that was signed.
 */
export function envelope(body: string, tag: string): { payload: string; signature: string } | null {
  const m = new RegExp(
    `^(?:<\\?xml [^>]*\\?>)?\\s*<EFDMS>(<${tag}>[\\s\\S]*</${tag}>)<EFDMSSIGNATURE>([A-Za-z0-9+/]+={0,2})</EFDMSSIGNATURE></EFDMS>\\s*$`,
  ).exec(body);
  return m ? { payload: m[1]!, signature: m[2]! } : null;
}

export const signPayload = (payload: string, privateKeyPem: string): string =>
  createSign('RSA-SHA1').update(payload, 'utf8').sign(privateKeyPem, 'base64');

export const verifyPayload = (payload: string, signature: string, publicKeyPem: string): boolean =>
  createVerify('RSA-SHA1').update(payload, 'utf8').verify(publicKeyPem, signature, 'base64');

/** A whole signed request or answer body. */
export const signedEnvelope = (payload: string, privateKeyPem: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><EFDMS>${payload}<EFDMSSIGNATURE>${signPayload(payload, privateKeyPem)}</EFDMSSIGNATURE></EFDMS>`;

const parser = new XMLParser({ preserveOrder: true, parseTagValue: false, trimValues: false, ignoreAttributes: true });

type Ordered = Record<string, Ordered[] | string>;

function toEl(node: Ordered): El | null {
  const tag = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
  if (!tag) return null;
  const children = node[tag] as Ordered[];
  const kids = children.map(toEl).filter((k): k is El => k !== null);
  const text = children.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join('');
  return { tag, text, kids };
}

/** The payload's element tree, or null when it is not well-formed XML with one root. */
export function parseElement(xml: string): El | null {
  if (XMLValidator.validate(xml) !== true) return null;
  const roots = (parser.parse(xml) as Ordered[]).map(toEl).filter((e): e is El => e !== null);
  return roots.length === 1 ? roots[0]! : null;
}

export const child = (el: El | undefined, tag: string): El | undefined => el?.kids.find((k) => k.tag === tag);

/** The text of `el`'s only child `tag`; undefined when it is missing or repeated. */
export function field(el: El | undefined, tag: string): string | undefined {
  const found = el?.kids.filter((k) => k.tag === tag) ?? [];
  return found.length === 1 && found[0]!.kids.length === 0 ? found[0]!.text : undefined;
}

/** `1234.50` → 123450; anything but digits, a dot and exactly two decimals → null. */
export function cents(text: string | undefined): number | null {
  const m = /^(\d{1,13})\.(\d\d)$/.exec(text ?? '');
  return m ? Number(m[1]) * 100 + Number(m[2]) : null;
}

/** 123450 → `1234.50`. */
export const amount = (c: number): string => `${Math.trunc(c / 100)}.${String(c % 100).padStart(2, '0')}`;

export const count = (text: string | undefined): number | null => (/^(0|[1-9]\d{0,14})$/.test(text ?? '') ? Number(text) : null);

/**
 * `kids` cut into consecutive groups with exactly these tags in this order (`PMTTYPE, PMTAMOUNT`),
 * or null when they do not divide that way.
 */
export function groups(el: El | undefined, tags: string[]): string[][] | null {
  const kids = el?.kids ?? [];
  if (kids.length % tags.length !== 0) return null;
  const out: string[][] = [];
  for (let i = 0; i < kids.length; i += tags.length) {
    const group = kids.slice(i, i + tags.length);
    if (group.some((k, j) => k.tag !== tags[j] || k.kids.length > 0)) return null;
    out.push(group.map((k) => k.text));
  }
  return out;
}

/** TRA's clock is East Africa Time (UTC+3, no daylight saving). */
export function eatNow(now = Date.now()): { date: string; time: string } {
  const iso = new Date(now + 3 * 3_600_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

export const escapeXml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
