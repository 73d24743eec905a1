/**
 * CSV files: the writer every export goes through (RFC 4180 quoting by csv-stringify, a header row
 * of the column keys, CRLF line ends), the defusing of text a spreadsheet would run as a formula,
 * and the answer that carries a file to the caller.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * Text a cashier typed (a product or customer name) that a spreadsheet would run as a formula is
 * written with a leading apostrophe (OWASP "CSV injection"); a `+` or `-` before nothing but a
 * number (a phone number in E.164, an amount) is left as it is.
 */
const FORMULA_START = /^[=@\t\r]|^[+-](?![\d .]*$)/;
export const defuseFormula = (v: string) => (FORMULA_START.test(v) ? `'${v}` : v);

/** A CSV writer stream of rows keyed by `keys`: the header row first, CRLF line ends, cells quoted as RFC 4180 asks. */
export const csvWriter = (keys: readonly string[]) =>
  stringify({ header: true, columns: keys.map((key) => ({ key, header: key })), record_delimiter: 'windows' });

/**
 * A CSV file as the answer: an attachment named `fileName` (built by the server, never from
 * input), never cached (it holds a shop's records); `headers` adds to these.
 */
export function csvResponse(c: Context<AppEnv>, file: { fileName: string; body: string | Readable }, headers: Record<string, string> = {}) {
  const body = typeof file.body === 'string' ? file.body : (Readable.toWeb(file.body) as ReadableStream);
  return c.body(body, 200, {
    'content-type': CSV_CONTENT_TYPE,
    ...headers,
    'cache-control': 'private, no-store',
    'content-disposition': `attachment; filename="${file.fileName}"`,
  }) as never;
}
