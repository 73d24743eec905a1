import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './base64.js';

describe('base64 without Buffer', () => {
  // Every byte value, and more than one 32 KiB slice.
  const bytes = Uint8Array.from({ length: 70_001 }, (_, i) => (i * 7) % 256);

  it('writes what Buffer writes and reads it back', () => {
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(toBase64(new Uint8Array())).toBe('');
  });

  it('reads the URL alphabet without padding, as in a token', () => {
    const odd = Uint8Array.from([251, 255, 191, 62, 63]);
    const url = Buffer.from(odd).toString('base64url');
    expect(url).toBe('-_-_Pj8');
    expect(fromBase64(url)).toEqual(odd);
  });
});
