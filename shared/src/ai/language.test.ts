import { describe, expect, it } from 'vitest';
import { languageOf } from './language.js';

describe('languageOf', () => {
  it.each([
    ['How are sales today?', 'en'],
    ['Who owes me money?', 'en'],
    ['Mauzo ya leo ni kiasi gani?', 'sw'],
    ['Habari, mambo?', 'sw'],
    ['Bei ya sukari', 'sw'],
    ['MATUMIZI WIKI HII', 'sw'],
    // A question in the planner's Swahili words alone.
    ['Mikopo?', 'sw'],
    ['Stoku iko vipi?', 'sw'],
    ['Stock?', 'en'],
  ] as const)('%s → %s', (question, lang) => {
    expect(languageOf(question)).toBe(lang);
  });
});
