/** The cart's arithmetic and the sale it hands the till (web/src/cart.ts). */
import type { Product } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import {
  addLabel,
  addProduct,
  badTin,
  cartTotals,
  cashPayment,
  emptyCart,
  lineKey,
  MOBILE,
  measured,
  parseScan,
  referenceMissing,
  saleInput,
  saleMethod,
  setDiscount,
  setPhone,
  setQty,
  shortBy,
  typedQty,
} from '../src/cart.js';

const product = (id: string, selling_price: number, over: Partial<Product> = {}): Product =>
  ({ id, name: `P ${id}`, selling_price, wholesale_price: null, wholesale_min_qty: null, tax_rate: 18, ...over }) as Product;

const soda = product('00000000-0000-4000-8000-000000000001', 1500);
const unga = product('00000000-0000-4000-8000-000000000002', 2350.5);

describe('the cart', () => {
  it('adds a scanned product again as one more on its line', () => {
    const cart = addProduct(addProduct(addProduct(emptyCart(), soda), unga), soda);
    expect(cart.lines.map((l) => [l.product.id, l.qty])).toEqual([
      [soda.id, 2],
      [unga.id, 1],
    ]);
  });

  it('prices in cents with the shared pricing: subtotal, discount, total', () => {
    const cart = setDiscount(setQty(addProduct(addProduct(emptyCart(), soda), unga), soda.id, 2), 10);
    const totals = cartTotals(cart);
    expect(totals.subtotal).toBe(535_050);
    expect(totals.discount).toBe(53_505);
    expect(totals.total).toBe(481_545);
    expect(totals.lines.map((l) => l.line_total)).toEqual([300_000, 235_050]);
  });

  it('drops a line set to zero and keeps quantities whole', () => {
    const cart = addProduct(addProduct(emptyCart(), soda), unga);
    expect(setQty(cart, soda.id, 0).lines.map((l) => l.product.id)).toEqual([unga.id]);
    expect(setQty(cart, unga.id, 3.7).lines[1]!.qty).toBe(3);
  });

  it('keeps the discount between 0 and 100 %', () => {
    expect(setDiscount(emptyCart(), 150).discountPct).toBe(100);
    expect(setDiscount(emptyCart(), -5).discountPct).toBe(0);
    expect(setDiscount(emptyCart(), Number.NaN).discountPct).toBe(0);
  });

  it('hands the till a sale: lines, method, and only what was given', () => {
    const cart = setDiscount(addProduct(emptyCart(), soda), 5);
    expect(saleInput(cart, { ...cashPayment(), method: 'M-Pesa', reference: ' QK7X2 ' })).toEqual({
      lines: [{ product_id: soda.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7X2',
      discount_pct: 5,
    });
    expect(saleInput(addProduct(emptyCart(), unga), { ...cashPayment(), method: 'Credit', customerId: 'c-1', tin: ' 100200300 ' })).toEqual(
      {
        lines: [{ product_id: unga.id, qty: 1 }],
        payment_method: 'Credit',
        customer_id: 'c-1',
        customer_tin: '100200300',
      },
    );
  });

  it("mobile money: the wallet follows the number's prefix until the cashier picks one; the sale carries the number as +255…", () => {
    const mobile = { ...cashPayment(), method: MOBILE } as const;
    expect(saleMethod(mobile)).toBeNull();
    const vodacom = setPhone(mobile, '0754 123 456');
    expect([vodacom.wallet, saleMethod(vodacom)]).toEqual(['M-Pesa', 'M-Pesa']);
    expect(setPhone(mobile, '+255 781 000 111').wallet).toBe('Airtel Money');
    expect(setPhone(mobile, '255652000111').wallet).toBe('Tigo Pesa');
    // 072 is disputed between sources, HaloPesa has no payment method, and half a number is nothing yet.
    expect([setPhone(mobile, '0722 000 111').wallet, setPhone(mobile, '0621 000 111').wallet, setPhone(mobile, '0754').wallet]).toEqual([
      null,
      null,
      null,
    ]);
    const picked = setPhone({ ...vodacom, wallet: 'Tigo Pesa', walletChosen: true }, '0781 000 111');
    expect(picked.wallet).toBe('Tigo Pesa');
    expect(saleInput(addProduct(emptyCart(), soda), { ...vodacom, reference: 'QK7X2' })).toEqual({
      lines: [{ product_id: soda.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7X2',
      payment_phone: '+255754123456',
    });
    // A number that is not one stays off the sale (the checkout holds the charge meanwhile).
    expect(saleInput(addProduct(emptyCart(), soda), { ...vodacom, phone: '0754 12' })).not.toHaveProperty('payment_phone');
  });

  it('holds a mobile-money charge until the reference from the customer’s SMS is typed', () => {
    const mobile = setPhone({ ...cashPayment(), method: MOBILE }, '0754 123 456');
    expect(referenceMissing(mobile)).toBe(true);
    expect(referenceMissing({ ...mobile, reference: '   ' })).toBe(true);
    expect(referenceMissing({ ...mobile, reference: 'QK7X2' })).toBe(false);
    // Cash and credit take no reference.
    expect(referenceMissing(cashPayment())).toBe(false);
    expect(referenceMissing({ ...cashPayment(), method: 'Credit' })).toBe(false);
  });

  it('holds the sale while a typed TIN is not 9 digits', () => {
    expect(badTin(cashPayment())).toBe(false);
    expect(badTin({ ...cashPayment(), tin: '100200300' })).toBe(false);
    expect(badTin({ ...cashPayment(), tin: '10020030' })).toBe(true);
    expect(badTin({ ...cashPayment(), tin: '10020030a' })).toBe(true);
  });
});

describe('parseScan and shortBy', () => {
  it('reads a quantity typed before the scan, in any of the ways cashiers type it', () => {
    expect(parseScan('6161100000017')).toEqual({ code: '6161100000017', qty: 1 });
    expect(parseScan('3*6161100000017')).toEqual({ code: '6161100000017', qty: 3 });
    expect(parseScan(' 12 x SODA-500 ')).toEqual({ code: 'SODA-500', qty: 12 });
    expect(parseScan('2×6161100000017')).toEqual({ code: '6161100000017', qty: 2 });
    // Not a quantity: a zero, or a code that merely contains an x.
    expect(parseScan('0*6161100000017')).toEqual({ code: '0*6161100000017', qty: 1 });
    expect(parseScan('BOX-12')).toEqual({ code: 'BOX-12', qty: 1 });
  });

  it('counts the units beyond the shelf, never for a service', () => {
    const p = { stock: 2, is_service: false } as Product;
    expect(shortBy({ product: p, qty: 2 })).toBe(0);
    expect(shortBy({ product: p, qty: 5 })).toBe(3);
    expect(shortBy({ product: { ...p, stock: -1 }, qty: 1 })).toBe(1);
    expect(shortBy({ product: { ...p, is_service: true }, qty: 9 })).toBe(0);
  });
});

describe('the cart by weight, by scale label and by the pack (issue 51)', () => {
  const sugar = product('00000000-0000-4000-8000-000000000003', 3250, { unit: 'kg', stock: 2 } as Partial<Product>);
  const crate = {
    id: '00000000-0000-4000-8000-000000000009',
    name: 'Crate of 24',
    units: 24,
    barcode: '6161100002400',
    selling_price: 30000,
  };
  const beer = product('00000000-0000-4000-8000-000000000004', 1500, { stock: 30, packs: [crate] } as Partial<Product>);

  it('prices a measured line once to the shilling, a pack at its price, a price label at its amount; lines as the till takes them', () => {
    let cart = addProduct(emptyCart(), sugar, 0.335);
    cart = addProduct(cart, beer, 1, crate);
    cart = addProduct(cart, beer, 2);
    cart = addLabel(cart, { ...sugar, scanned_pack: null, scale_label: { barcode: '2300003017027', qty: 0.524, amount: 1702 } });
    // 3,250 × 0.335 = 1,088.75 → 1,089; the crate 30,000; two bottles 3,000; the label 1,702.
    expect(cartTotals(cart).lines.map((l) => l.line_total)).toEqual([108_900, 3_000_000, 300_000, 170_200]);
    expect(saleInput(cart, cashPayment()).lines).toEqual([
      { product_id: sugar.id, qty: 0.335 },
      { product_id: beer.id, qty: 1, pack_id: crate.id },
      { product_id: beer.id, qty: 2 },
      { product_id: sugar.id, qty: 0.524, scale_barcode: '2300003017027' },
    ]);
    // Counted in bottles: one crate (24) fits the 30 on the shelf; two crates (48) are 18 short.
    expect(shortBy(cart.lines[1]!)).toBe(0);
    expect(shortBy(addProduct(cart, beer, 1, crate).lines[1]!)).toBe(18);
  });

  it('keeps a measured quantity to 3 decimals without float tails, a label fixed, and reads a typed quantity', () => {
    let cart = addProduct(addProduct(emptyCart(), sugar, 0.1), sugar, 0.2);
    expect(cart.lines[0]!.qty).toBe(0.3);
    cart = setQty(cart, lineKey(cart.lines[0]!), 1.25);
    expect(cart.lines[0]!.qty).toBe(1.25);
    expect([typedQty('0,5', sugar), typedQty('1.2345', sugar), typedQty('0', sugar), typedQty('0.5', beer), typedQty('2', beer)]).toEqual([
      0.5,
      null,
      null,
      null,
      2,
    ]);
    expect(measured(sugar)).toBe(true);
    expect(measured(beer)).toBe(false);
  });
});
