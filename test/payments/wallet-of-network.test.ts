/** A received payment's wallet from the provider's word for its network: each spelling the providers send, and nothing guessed. */
import { describe, expect, it } from 'vitest';
import { walletOfNetwork } from '../../server/src/modules/payments/inbox/wallet-of-network.js';

describe('walletOfNetwork', () => {
  it("names the wallet from AzamPay's and Selcom's words, in any case and spacing", () => {
    const cases: Array<[string | null, string]> = [
      ['Mpesa', 'M-Pesa'],
      ['MPESA', 'M-Pesa'],
      ['m-pesa', 'M-Pesa'],
      ['VODACOM', 'M-Pesa'],
      ['Tigo', 'Tigo Pesa'],
      ['TIGOPESA', 'Tigo Pesa'],
      ['Tigo Pesa', 'Tigo Pesa'],
      ['Mixx', 'Tigo Pesa'],
      ['MIXX BY YAS', 'Tigo Pesa'],
      ['Airtel', 'Airtel Money'],
      ['AIRTELMONEY', 'Airtel Money'],
      ['airtel money', 'Airtel Money'],
      ['Halopesa', 'other'],
      ['HALOPESA', 'other'],
      ['Azampesa', 'other'],
      ['T-PESA', 'other'],
      ['', 'other'],
      [null, 'other'],
    ];
    expect(cases.map(([word]) => [word, walletOfNetwork(word)])).toEqual(cases);
  });
});
