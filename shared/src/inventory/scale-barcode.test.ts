import { describe, expect, it } from 'vitest';
import { decodeScaleBarcode, ean13CheckDigit, looksLikeScaleLabel, scaleLine } from './scale-barcode.js';
import { DEFAULT_SCALE_BARCODES, ScaleBarcodeConfig, ScaleBarcodeRule } from './scale-barcode.schemas.js';

const on: ScaleBarcodeConfig = { ...DEFAULT_SCALE_BARCODES, enabled: true };

describe('scale barcodes: EAN-13 in-store labels', () => {
  it('computes the EAN-13 check digit', () => {
    expect(ean13CheckDigit('400638133393')).toBe(1);
    expect(ean13CheckDigit('210004201250')).toBe(9);
    expect(ean13CheckDigit('230007700000')).toBe(1);
  });

  it('reads a weight label as kilograms to the gram', () => {
    expect(decodeScaleBarcode('2100042012509', on)).toEqual({ item_code: '00042', weight: 1.25 });
    expect(decodeScaleBarcode(' 2100042005006 ', on)).toEqual({ item_code: '00042', weight: 0.5 });
    expect(decodeScaleBarcode('2100042000001', on)).toEqual({ item_code: '00042', weight: 0 });
  });

  it('reads a price label as cents', () => {
    expect(decodeScaleBarcode('2300042017027', on)).toEqual({ item_code: '00042', price: 170_200 });
    const cents: ScaleBarcodeConfig = {
      enabled: true,
      rules: [{ prefix: '22', item_digits: 5, value: 'price', value_digits: 5, decimals: 2 }],
    };
    expect(decodeScaleBarcode('2200001064003', cents)).toEqual({ item_code: '00001', price: 6400 });
  });

  it('refuses a label whose check digit is wrong rather than misreading it', () => {
    for (const wrong of ['2100042012500', '2100042012508', '2100042012599', '2100042102509']) {
      expect(decodeScaleBarcode(wrong, on)).toBeNull();
      expect(looksLikeScaleLabel(wrong, on)).toBe(true);
    }
  });

  it('leaves alone what is not one of the organisation labels', () => {
    expect(decodeScaleBarcode('4006381333931', on)).toBeNull();
    expect(decodeScaleBarcode('2000042012502', on)).toBeNull();
    expect(decodeScaleBarcode('210004201250', on)).toBeNull();
    expect(decodeScaleBarcode('21000420125x9', on)).toBeNull();
    expect(looksLikeScaleLabel('4006381333931', on)).toBe(false);
  });

  it('reads nothing while the scales are off', () => {
    expect(decodeScaleBarcode('2100042012509', DEFAULT_SCALE_BARCODES)).toBeNull();
    expect(decodeScaleBarcode('2100042012509', null)).toBeNull();
    expect(looksLikeScaleLabel('2100042012509', undefined)).toBe(false);
  });

  it('reads a three-digit prefix and a six-digit item code', () => {
    const config: ScaleBarcodeConfig = {
      enabled: true,
      rules: [{ prefix: '250', item_digits: 4, value: 'weight', value_digits: 5, decimals: 3 }],
    };
    expect(decodeScaleBarcode('2500123456787', config)).toEqual({ item_code: '0123', weight: 45.678 });
  });

  it('checks a configuration: 12 digits before the check digit, no prefix inside another', () => {
    expect(ScaleBarcodeRule.safeParse({ prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 }).success).toBe(true);
    expect(ScaleBarcodeRule.safeParse({ prefix: '21', item_digits: 6, value: 'weight', value_digits: 5, decimals: 3 }).success).toBe(false);
    expect(ScaleBarcodeRule.safeParse({ prefix: '31', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 }).success).toBe(false);
    expect(ScaleBarcodeRule.safeParse({ prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 3 }).success).toBe(false);
    const overlapping = {
      enabled: true,
      rules: [
        { prefix: '2', item_digits: 6, value: 'weight', value_digits: 5, decimals: 3 },
        { prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 },
      ],
    };
    expect(ScaleBarcodeConfig.safeParse(overlapping).success).toBe(false);
    expect(ScaleBarcodeConfig.safeParse(DEFAULT_SCALE_BARCODES).success).toBe(true);
  });
});

describe('scale barcodes: what a label sells', () => {
  it('sells the weight of a kg or g product', () => {
    expect(scaleLine({ item_code: '00042', weight: 1.25 }, { unit: 'kg', unitPrice: 320_000 })).toEqual({ qty: 1.25 });
    expect(scaleLine({ item_code: '00042', weight: 0.335 }, { unit: 'g', unitPrice: 400 })).toEqual({ qty: 335 });
    expect(scaleLine({ item_code: '00042', weight: 1.25 }, { unit: 'piece', unitPrice: 100 })).toEqual({
      fault: 'a weight label sells a product sold by kg or g, not by piece',
    });
    expect(scaleLine({ item_code: '00042', weight: 1 }, { unit: 'l', unitPrice: 100 })).toHaveProperty('fault');
    expect(scaleLine({ item_code: '00042', weight: 0 }, { unit: 'kg', unitPrice: 100 })).toEqual({ fault: 'the label weighs nothing' });
  });

  it("sells what a price label's price buys, to the gram, half up, charged the label's price", () => {
    // 1,702 TZS at 3,200/kg = 0.531875 kg → 0.532 kg; the line is 1,702 TZS.
    expect(scaleLine({ item_code: '00042', price: 170_200 }, { unit: 'kg', unitPrice: 320_000 })).toEqual({ qty: 0.532, amount: 170_200 });
    // 1,000 TZS at 3,000/kg = 0.3333… → 0.333; 500 at 4,000/kg = 0.125 exactly.
    expect(scaleLine({ item_code: '1', price: 100_000 }, { unit: 'kg', unitPrice: 300_000 })).toEqual({ qty: 0.333, amount: 100_000 });
    expect(scaleLine({ item_code: '1', price: 50_000 }, { unit: 'kg', unitPrice: 400_000 })).toEqual({ qty: 0.125, amount: 50_000 });
    // Half a gram rounds up: 1 TZS at 2,000/kg = 0.0005 kg → 0.001.
    expect(scaleLine({ item_code: '1', price: 100 }, { unit: 'kg', unitPrice: 200_000 })).toEqual({ qty: 0.001, amount: 100 });
    expect(scaleLine({ item_code: '1', price: 100 }, { unit: 'kg', unitPrice: 200_001 })).toEqual({
      fault: "the label's price buys less than 0.001",
    });
  });

  it('sells whole pieces only, exactly, from a price label', () => {
    expect(scaleLine({ item_code: '1', price: 640_000 }, { unit: 'piece', unitPrice: 320_000 })).toEqual({ qty: 2, amount: 640_000 });
    expect(scaleLine({ item_code: '1', price: 500_000 }, { unit: 'piece', unitPrice: 320_000 })).toEqual({
      fault: "the label's price is not a whole number of pieces",
    });
    expect(scaleLine({ item_code: '1', price: 500_000 }, { unit: 'piece', unitPrice: 0 })).toHaveProperty('fault');
    expect(scaleLine({ item_code: '1', price: 0 }, { unit: 'kg', unitPrice: 100 })).toEqual({ fault: 'the label has no price' });
  });
});
