import { describe, expect, it } from 'vitest';
import { customerLookup, saleStatusOf, storeReceiptNumber, tillReceiptNumber } from './sale-parts.js';

describe('the parts of a sale both sides compute', () => {
  it('gives a credit sale the credit status and every other method paid', () => {
    expect([saleStatusOf('Credit'), saleStatusOf('Cash'), saleStatusOf('M-Pesa')]).toEqual(['credit', 'paid', 'paid']);
  });

  it("numbers a sale by the store's six digits on the server and the till's own sequence on the till", () => {
    expect([storeReceiptNumber('KRK', 42), storeReceiptNumber('KRK', 1234567)]).toEqual(['KRK-000042', 'KRK-1234567']);
    expect(tillReceiptNumber('KRK', 'T2', 17)).toBe('KRK-T2-17');
  });

  it('says whether the customer asked for was found', () => {
    expect([customerLookup('c1', { id: 'c1' }), customerLookup('c1', null), customerLookup(undefined, undefined)]).toEqual([
      'found',
      'not_found',
      'none',
    ]);
    // Found by phone without an id (the server's online sale) is found too.
    expect(customerLookup(undefined, { id: 'c2' })).toBe('found');
  });
});
