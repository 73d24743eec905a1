import { textDiff } from '@duka/shared';
import { describe, expect, it } from 'vitest';

/** No lone half of a surrogate pair. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
const apply = (before: string, e: ReturnType<typeof textDiff>) => before.slice(0, e.index) + e.insert + before.slice(e.index + e.remove);

describe('textDiff', () => {
  it('keeps the common prefix and suffix and touches only what changed', () => {
    expect(textDiff('Milk 2\nSugar 1\nRice 5', 'Milk 2\nSugar 3\nRice 5')).toEqual({ index: 13, remove: 1, insert: '3' });
    expect(textDiff('abc', 'abc')).toEqual({ index: 3, remove: 0, insert: '' });
    expect(textDiff('', 'new')).toEqual({ index: 0, remove: 0, insert: 'new' });
    expect(textDiff('old', '')).toEqual({ index: 0, remove: 3, insert: '' });
    expect(textDiff('aaaa', 'aa')).toEqual({ index: 2, remove: 2, insert: '' });
  });

  it('never splits a surrogate pair (emoji count as two UTF-16 units, as in Y.Text)', () => {
    const cases: Array<[string, string]> = [
      ['a😀b', 'a😁b'],
      ['😀', '😀😀'],
      ['x😀', '😀'],
      ['\uD83D\uDE00', '\uD83E\uDE00'],
      ['Bei 😀 nafuu', 'Bei 😀😀 nafuu sana'],
    ];
    for (const [before, after] of cases) {
      const e = textDiff(before, after);
      expect(apply(before, e), `${before} → ${after}`).toBe(after);
      const removed = before.slice(e.index, e.index + e.remove);
      for (const part of [removed, e.insert]) expect(wellFormed(part), `${before} → ${after}: ${JSON.stringify(part)}`).toBe(true);
    }
    expect(textDiff('a😀b', 'a😁b')).toEqual({ index: 1, remove: 2, insert: '😁' });
  });
});
