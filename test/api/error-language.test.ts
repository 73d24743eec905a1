/**
 * Errors in the owner's language (issue 54), over real HTTP: with `Accept-Language: sw` the field
 * messages zod wrote are in Swahili (a schema's own words kept) and every other error's envelope
 * `message` is its code's Swahili sentence; without the header, or with a language the API does
 * not speak, the answer is the English it always was.
 */
import { newId, UNITS } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredLanguage } from '../../server/src/lib/language.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

/** A product with one mistake of each common kind, and one the schema words itself (cost_price). */
const BAD_PRODUCT = {
  sku: '  ',
  category_id: 'not-a-uuid',
  cost_price: 1.234,
  selling_price: -5,
  wholesale_min_qty: 0,
  stock: 'many',
  unit: 'crate',
  tax_rate: 101,
  tax_code: 'Z',
  description: 'x'.repeat(2001),
  expiry_alert_days: 2.5,
};

const ENGLISH = {
  'name': 'is required',
  'category_id': 'must be a valid UUID',
  'sku': 'must be at least 1 characters',
  'cost_price': 'at most 2 decimals',
  'selling_price': 'must be at least 0',
  'wholesale_min_qty': 'must be at least 0',
  'stock': 'must be a number',
  'unit': `must be one of: ${UNITS.join(', ')}`,
  'tax_rate': 'must be at most 100',
  'tax_code': 'must be one of: A, B, C, D, E',
  'description': 'must be at most 2000 characters',
  'expiry_alert_days': 'must be an integer',
};

const SWAHILI: typeof ENGLISH = {
  'name': 'inahitajika',
  'category_id': 'lazima iwe UUID sahihi',
  'sku': 'haiwezi kuwa tupu',
  'cost_price': 'at most 2 decimals',
  'selling_price': 'lazima iwe angalau 0',
  'wholesale_min_qty': 'lazima iwe zaidi ya 0',
  'stock': 'lazima iwe namba',
  'unit': `lazima iwe mojawapo ya: ${UNITS.join(', ')}`,
  'tax_rate': 'isizidi 100',
  'tax_code': 'lazima iwe mojawapo ya: A, B, C, D, E',
  'description': 'lazima iwe na herufi zisizozidi 2000',
  'expiry_alert_days': 'lazima iwe namba kamili',
};

describe('errors in the language the request asks for', () => {
  let t: TestApp;
  let server: Listening;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    owner = await registerOwner(t);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  async function send(method: string, path: string, body: unknown, language?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
    if (language) headers['accept-language'] = language;
    const res = await fetch(`${server.origin}${t.config.BASE_PATH}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  const byField = (errors: Array<{ field?: string; message: string }>) => Object.fromEntries(errors.map((e) => [e.field, e.message]));

  it('answers a bad product in Swahili for Accept-Language: sw, field by field, the schema’s own words kept', async () => {
    const res = await send('POST', '/inventory/products', BAD_PRODUCT, 'sw');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-language')).toBe('sw');
    expect(res.headers.get('vary')).toMatch(/accept-language/i);
    expect(byField(res.body.errors)).toEqual(SWAHILI);
    expect(res.body.errors.every((e: { code: string }) => e.code === 'VALIDATION_ERROR')).toBe(true);
    expect(res.body.message).toBe('name inahitajika');
  });

  it('answers the same product in English without the header, as before', async () => {
    const res = await send('POST', '/inventory/products', BAD_PRODUCT);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-language')).toBe('en');
    expect(byField(res.body.errors)).toEqual(ENGLISH);
    expect(res.body.message).toBe('name is required');
  });

  it('takes sw-TZ and q-values, and answers English for a language it does not speak', async () => {
    const body = { name: 'Soda', selling_price: -1 };
    expect((await send('POST', '/inventory/products', body, 'sw-TZ,sw;q=0.9,en;q=0.8')).body.errors[0].message).toBe(
      'lazima iwe angalau 0',
    );
    expect((await send('POST', '/inventory/products', body, 'en-GB,sw;q=0.5')).body.errors[0].message).toBe('must be at least 0');
    const french = await send('POST', '/inventory/products', body, 'fr-FR,fr;q=0.9');
    expect(french.body.errors[0].message).toBe('must be at least 0');
    expect(french.headers.get('content-language')).toBe('en');
  });

  it('gives the envelope of any other error its code’s Swahili sentence, the server’s own words kept in errors', async () => {
    const missing = await send('GET', `/inventory/products/${newId()}`, undefined, 'sw');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Haikupatikana');
    expect(missing.body.errors).toEqual([{ code: 'NOT_FOUND', message: 'product not found' }]);
    const english = await send('GET', `/inventory/products/${newId()}`, undefined);
    expect(english.body.message).toBe('product not found');

    const anonymous = await fetch(`${server.origin}${t.config.BASE_PATH}/inventory/products`, { headers: { 'accept-language': 'sw' } });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { message: string }).message).toBe('Unahitaji kuingia kwanza');
  });

  it('says a bad phone number in Swahili: a rule every client meets carries its own Swahili', async () => {
    const sw = await send('POST', '/customers', { name: 'Neema', phone: 'abcdefgh' }, 'sw');
    expect(sw.status).toBe(400);
    expect(sw.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'phone', message: 'si namba ya simu sahihi' }]);
    expect(sw.body.message).toBe('phone si namba ya simu sahihi');
    const en = await send('POST', '/customers', { name: 'Neema', phone: 'abcdefgh' });
    expect(en.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'phone', message: 'is not a valid phone number' }]);
  });

  it("words a catalogue file's cells in the request's language too", async () => {
    const csv = 'name,selling_price,stock\nSoap,-5,1\n,100,2\nSalt,abc,1';
    const errors = async (language?: string) => {
      const res = await send('POST', '/inventory/products/import', { csv, dry_run: true }, language);
      expect(res.status).toBe(200);
      return res.body.data.errors.map((e: { field: string; message: string }) => [e.field, e.message]);
    };
    expect(await errors('sw')).toEqual([
      ['rows[2].selling_price', 'lazima iwe angalau 0'],
      ['rows[3].name', 'inahitajika'],
      ['rows[4].selling_price', 'must be a number, not "abc"'],
    ]);
    expect(await errors()).toEqual([
      ['rows[2].selling_price', 'must be at least 0'],
      ['rows[3].name', 'is required'],
      ['rows[4].selling_price', 'must be a number, not "abc"'],
    ]);
  });

  it('reads Accept-Language as HTTP weighs it', () => {
    expect(preferredLanguage(undefined)).toBe('en');
    expect(preferredLanguage('')).toBe('en');
    expect(preferredLanguage('sw')).toBe('sw');
    expect(preferredLanguage('SW-tz')).toBe('sw');
    expect(preferredLanguage('en, sw')).toBe('en');
    expect(preferredLanguage('en;q=0.4, sw;q=0.6')).toBe('sw');
    expect(preferredLanguage('fr, sw;q=0.5')).toBe('sw');
    expect(preferredLanguage('sw;q=0')).toBe('en');
    expect(preferredLanguage('*')).toBe('en');
    expect(preferredLanguage('de-DE')).toBe('en');
  });
});
