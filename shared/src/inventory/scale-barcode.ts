/**
 * Issue 51: the EAN-13 labels a shop scale prints (GS1 in-store codes, first digit 2). A label is
 * `prefix` + the product's scale item code + a value + the EAN-13 check digit; the value is either
 * the weight (`weight`: kilograms with `decimals` places, 3 = grams) or the price (`price`:
 * shillings with `decimals` places). The layouts follow Odoo's barcode nomenclature (`21.....{NNDDD}`
 * a weight, `23.....{NNNNN}` a price) and ERPNext's scale settings (prefix, item-code length, value).
 *
 * Each organisation keeps its own rules (`scale_barcodes` on the organisation); the server and the
 * till decode with this one function, so a label means the same online and offline. A label whose
 * check digit is wrong is refused, never read as some other weight or price.
 *
 * A weight label sells that weight; its line is priced as any measured line (`lineAmount`). A price
 * label sells the quantity its price buys at the product's unit price, to the thousandth (half up),
 * and its line is charged the label's price exactly: the customer was told that price on the label,
 * so `lineAmount`'s rounding is not applied to it (the quantity is what stock loses; at 3,200/kg a
 * gram is 3.2 TZS, so price × quantity and the label may differ by less than 2 TZS).
 */
import type { ScaleBarcodeConfig } from './scale-barcode.schemas.js';
import { unitScale } from './unit-scale.js';
import { isMeasured, type Unit } from './units.js';

export interface ScaleLabel {
  /** The product's `scale_code` as printed (leading zeros kept). */
  item_code: string;
  /** A weight label: the weight in kilograms (at most 3 decimals). */
  weight?: number;
  /** A price label: the price in cents. */
  price?: number;
}

/** The EAN-13 check digit of 12 digits. */
export function ean13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

const ruleFor = (code: string, config: ScaleBarcodeConfig | null | undefined) =>
  config?.enabled && /^\d{13}$/.test(code) ? config.rules.find((r) => code.startsWith(r.prefix)) : undefined;

/** Whether `code` has the shape of one of the organisation's labels (right check digit or not). */
export const looksLikeScaleLabel = (code: string, config: ScaleBarcodeConfig | null | undefined): boolean =>
  ruleFor(code.trim(), config) !== undefined;

/**
 * The item code and weight or price of a scale label; null when `code` is not one of the
 * organisation's labels (scales off, not 13 digits, no rule for its prefix) or its check digit is wrong.
 */
export function decodeScaleBarcode(code: string, config: ScaleBarcodeConfig | null | undefined): ScaleLabel | null {
  const c = code.trim();
  const rule = ruleFor(c, config);
  if (!rule || ean13CheckDigit(c) !== Number(c[12])) return null;
  const start = rule.prefix.length;
  const item_code = c.slice(start, start + rule.item_digits);
  const raw = Number(c.slice(start + rule.item_digits, 12));
  if (rule.value === 'weight') return { item_code, weight: raw / 10 ** rule.decimals };
  return { item_code, price: raw * 10 ** (2 - rule.decimals) };
}

/** What a label sells of a product: the quantity in its unit and, for a price label, the line's amount in cents. */
export type ScaleLine = { qty: number; amount?: number } | { fault: string };

/**
 * A label's quantity of a product (`unit`, `unitPrice` cents per unit). A weight label sells a
 * product sold by kg or g; a price label buys price ÷ unit price to the thousandth, half up (whole
 * pieces only, exactly, for a piece product), and is charged the label's price.
 */
export function scaleLine(label: ScaleLabel, product: { unit: Unit; unitPrice: number }): ScaleLine {
  const { unit, unitPrice } = product;
  if (label.weight !== undefined) {
    if (unit !== 'kg' && unit !== 'g') return { fault: `a weight label sells a product sold by kg or g, not by ${unit}` };
    if (label.weight <= 0) return { fault: 'the label weighs nothing' };
    return { qty: unit === 'kg' ? label.weight : Math.round(label.weight * 1000) };
  }
  const price = label.price ?? 0;
  if (price <= 0) return { fault: 'the label has no price' };
  if (unitPrice <= 0) return { fault: 'the product has no price to divide the label by' };
  const num = BigInt(price) * BigInt(unitScale(unit));
  if (!isMeasured(unit)) {
    if (num % BigInt(unitPrice) !== 0n) return { fault: "the label's price is not a whole number of pieces" };
    return { qty: Number(num / BigInt(unitPrice)), amount: price };
  }
  const count = Number((2n * num + BigInt(unitPrice)) / (2n * BigInt(unitPrice)));
  if (count < 1) return { fault: "the label's price buys less than 0.001" };
  return { qty: count / 1000, amount: price };
}
