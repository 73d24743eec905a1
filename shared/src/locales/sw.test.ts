/**
 * The Swahili locale in zod's shape, asked for per parse (the English of zod-setup.ts stays the
 * global default): each common issue kind, read after a field name.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import '../zod-setup.js';
import sw from './sw.js';

const swahili = (schema: z.ZodType, input: unknown) => schema.safeParse(input, { error: sw().localeError }).error?.issues[0]?.message;
const english = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe('the Swahili locale for zod', () => {
  it.each([
    ['missing', z.object({ a: z.string() }), {}, 'inahitajika'],
    ['wrong type', z.number(), 'five', 'lazima iwe namba'],
    ['not whole', z.int(), 2.5, 'lazima iwe namba kamili'],
    ['empty', z.string().min(1), '', 'haiwezi kuwa tupu'],
    ['too short', z.string().min(8), 'abc', 'lazima iwe na herufi angalau 8'],
    ['too long', z.string().max(3), 'abcd', 'lazima iwe na herufi zisizozidi 3'],
    ['exact length', z.string().length(4), 'abc', 'lazima iwe na herufi 4 hasa'],
    ['too few', z.array(z.string()).min(1), [], 'lazima iwe na vitu angalau 1'],
    ['too small', z.number().min(0), -1, 'lazima iwe angalau 0'],
    ['not positive', z.number().positive(), 0, 'lazima iwe zaidi ya 0'],
    ['too large', z.number().max(100), 101, 'isizidi 100'],
    ['not below', z.number().lt(10), 10, 'lazima iwe chini ya 10'],
    ['not one of', z.enum(['cash', 'credit']), 'cheque', 'lazima iwe mojawapo ya: cash, credit'],
    ['not the one', z.literal('yes'), 'no', 'lazima iwe yes'],
    ['email', z.email(), 'juma@', 'lazima iwe barua pepe sahihi'],
    ['uuid', z.uuid(), 'x', 'lazima iwe UUID sahihi'],
    ['date', z.iso.date(), '2026-13-40', 'lazima iwe tarehe sahihi (YYYY-MM-DD)'],
    ['datetime', z.iso.datetime(), 'jana', 'lazima iwe tarehe na saa sahihi (ISO 8601)'],
    ['phone', z.e164(), '0712', 'lazima iwe namba ya simu sahihi (+255…)'],
    ['pattern', z.string().regex(/^\d+$/), 'abc', 'haiko katika muundo unaotakiwa'],
    ['unknown field', z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, 'sehemu isiyojulikana: b'],
    ['multiple', z.number().multipleOf(5), 7, 'lazima igawanyike kwa 5'],
  ])('%s', (_kind, schema, input, message) => {
    expect(swahili(schema, input)).toBe(message);
  });

  it('keeps a schema’s own words, and English as the default', () => {
    expect(swahili(z.string().min(8, 'must be at least 8 characters long'), 'a')).toBe('must be at least 8 characters long');
    expect(english(z.number().min(0), -1)).toBe('must be at least 0');
    expect(english(z.object({ a: z.string() }), {})).toBe('is required');
  });
});
