import { describe, expect, it } from 'vitest';
import { fromCount, lineAmount, QuantityInput, quantityFault, toCount } from './units.js';

describe('units: quantities kept as integer counts', () => {
  it('keeps a piece whole and a measure to the thousandth, exactly', () => {
    expect(toCount(3, 'piece')).toBe(3);
    expect(toCount(1.375, 'kg')).toBe(1375);
    expect(toCount(0.1, 'l')).toBe(100);
    expect(toCount(0.3, 'kg') + toCount(0.6, 'kg')).toBe(900);
    expect(fromCount(1375, 'kg')).toBe(1.375);
    expect(fromCount(20, 'piece')).toBe(20);
    expect(() => toCount(0.5, 'piece')).toThrow('quantity 0.5 a product sold by the piece takes whole numbers');
    expect(quantityFault(1.0005, 'kg')).toBe('takes at most 3 decimals (kg)');
    expect(quantityFault(2, 'piece')).toBeNull();
  });

  it('prices a measured line half up to the shilling, once, and a piece line exactly', () => {
    expect(lineAmount(155_000, 333, 'kg')).toBe(51_600);
    expect(lineAmount(155_000, 335, 'kg')).toBe(51_900);
    expect(lineAmount(325_000, 500, 'kg')).toBe(162_500);
    expect(lineAmount(150_000, 1, 'kg')).toBe(200);
    expect(lineAmount(155_050, 3, 'piece')).toBe(465_150);
  });

  it('takes at most 3 decimals as input', () => {
    expect(QuantityInput.safeParse(1.25).success).toBe(true);
    expect(QuantityInput.safeParse(1.2345).success).toBe(false);
    expect(QuantityInput.safeParse(0).success).toBe(false);
  });
});
