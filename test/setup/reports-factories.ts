/** Helpers for the reports tests: a CSV reader, clock moves, a fresh sign-in. */
import { expect } from 'vitest';
import { startOfLocalDay } from '../../server/src/lib/time.js';
import type { Session } from './factories.js';
import type { TestApp } from './test-app.js';

export const TZ = 'Africa/Dar_es_Salaam';

/** RFC 4180: fields separated by commas, records by CRLF; quoted fields double their quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Header row and records as objects. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header, ...rest] = parseCsv(text);
  return { header: header!, records: rest.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

/** The instant of local `date` at `hh:mm:ss` in Dar es Salaam. */
export const localAt = (date: string, time: string) => {
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return startOfLocalDay(date, TZ) + ((h * 60 + m) * 60 + s) * 1000;
};

/** Move the test clock to `at`. */
export const moveClock = (t: TestApp, at: number) => t.clock.advance(at - t.clock.now());

/** A new access token for `s` at the clock's current time (tokens live 15 minutes). */
export async function signIn(t: TestApp, s: Session): Promise<Session> {
  const res = await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: s.password } });
  expect(res.status, res.text).toBe(200);
  return { ...s, token: res.body.data.access_token, refresh: res.body.data.refresh_token };
}
