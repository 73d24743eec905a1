import { describe, expect, it } from 'vitest';
import { formatTzs } from './money.js';

describe('formatTzs', () => {
  it('writes whole shillings without decimals and anything else with two', () => {
    expect(formatTzs(1_250_000)).toBe('TZS 12,500');
    expect(formatTzs(155_050)).toBe('TZS 1,550.50');
    expect(formatTzs(1_750_001)).toBe('TZS 17,500.01');
    expect(formatTzs(0)).toBe('TZS 0');
    expect(formatTzs(-890_050)).toBe('TZS -8,900.50');
  });
});
