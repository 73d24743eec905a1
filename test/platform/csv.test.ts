/** The one CSV writer and answer of every export (server/src/lib/csv.ts): the bytes a spreadsheet opens. */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { csvResponse, csvWriter, defuseFormula } from '../../server/src/lib/csv.js';
import type { AppEnv } from '../../server/src/lib/context.js';

async function written(keys: string[], rows: Record<string, string>[]): Promise<string> {
  const csv = csvWriter(keys);
  for (const r of rows) csv.write(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, defuseFormula(v)])));
  csv.end();
  let out = '';
  for await (const chunk of csv) out += String(chunk);
  return out;
}

describe('CSV files', () => {
  it('quotes commas, quotes and CRLF line breaks, ends lines with CRLF, and defuses formula-like text', async () => {
    const text = await written(
      ['name', 'note'],
      [
        { name: 'Sukari, 1kg', note: 'said "hi"' },
        { name: 'two\r\nlines', note: '=SUM(A1:A9)' },
        { name: '+255712345678', note: '-Unga' },
        { name: '@cmd', note: '-12.50' },
        { name: '\tTab', note: 'plain' },
      ],
    );
    expect(text).toBe(
      'name,note\r\n' +
        '"Sukari, 1kg","said ""hi"""\r\n' +
        '"two\r\nlines",\'=SUM(A1:A9)\r\n' +
        "+255712345678,'-Unga\r\n" +
        "'@cmd,-12.50\r\n" +
        "'\tTab,plain\r\n",
    );
  });

  it('answers a file as an attachment that is never cached, from text or a stream', async () => {
    const app = new Hono<AppEnv>()
      .get('/text', (c) => csvResponse(c, { fileName: 'sales_2026-01-01.csv', body: 'a,b\r\n1,2\r\n' }))
      .get('/stream', (c) =>
        csvResponse(c, { fileName: 'big.csv', body: Readable.from([Buffer.from('a\r\n'), Buffer.from('1\r\n')]) }, { 'x-export-id': 'e1' }),
      );
    for (const [path, name, body] of [
      ['/text', 'sales_2026-01-01.csv', 'a,b\r\n1,2\r\n'],
      ['/stream', 'big.csv', 'a\r\n1\r\n'],
    ] as const) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(await res.text()).toBe(body);
    }
    expect((await app.request('/stream')).headers.get('x-export-id')).toBe('e1');
  });
});
