/**
 * Building TRA's request bodies and reading its answers. Bodies are written element by element in
 * TRA's order with no whitespace, because the signature covers the exact bytes and a resend must
 * repeat them (docs/fiscal-wire.md); answers are small and parsed with fast-xml-parser.
 */
import { fromCents } from '@duka/shared';
import { XMLParser } from 'fast-xml-parser';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** `<TAG>value</TAG>` for each pair, values escaped. */
export function elements(pairs: Array<[string, string | number]>): string {
  return pairs.map(([tag, value]) => `<${tag}>${escapeXml(String(value))}</${tag}>`).join('');
}

export const wrap = (tag: string, inner: string) => `<${tag}>${inner}</${tag}>`;

/** The signed envelope: the payload element followed by its signature. */
export const envelope = (payload: string, signature: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><EFDMS>${payload}<EFDMSSIGNATURE>${signature}</EFDMSSIGNATURE></EFDMS>`;

/** The payload element of a signed answer, exactly as it came, and its signature; null when the answer is not one. */
export function signedPart(xml: string, tag: string): { payload: string; signature: Buffer } | null {
  const m = new RegExp(`<EFDMS>\\s*(<${tag}>[\\s\\S]*</${tag}>)\\s*<EFDMSSIGNATURE>([A-Za-z0-9+/=\\s]+)</EFDMSSIGNATURE>\\s*</EFDMS>`).exec(
    xml,
  );
  return m ? { payload: m[1]!, signature: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') } : null;
}

/** Cents as TRA's amounts: exactly two decimals, no grouping. */
export const amount = (cents: number): string => fromCents(cents).toFixed(2);

const parser = new XMLParser({ parseTagValue: false, trimValues: true });

/** The element `path` of an answer (e.g. ['EFDMS', 'RCTACK']) as a record of strings, or null. */
export function readAnswer(xml: string, path: string[]): Record<string, unknown> | null {
  try {
    let node: unknown = parser.parse(xml);
    for (const p of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[p] : undefined;
    return node && typeof node === 'object' ? (node as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
