/**
 * Which wallet a received payment came from, by the words its provider used for the network. The
 * spellings seen: AzamPay's callback `provider` ('Mpesa', 'Tigo', 'Airtel', 'Halopesa', 'Azampesa')
 * and Selcom's `channel` ('MPESA', 'TIGOPESA', 'AIRTELMONEY', 'HALOPESA'); Tigo Pesa is now Mixx by
 * Yas, so those names are Tigo Pesa too. Case, spaces and dashes are ignored. A wallet the till has
 * no payment method for (HaloPesa, AzamPesa, T-Pesa) or a word not known is `other`: listed for the
 * owner, never guessed into a wallet.
 */
import type { ReconciledWallet } from '@duka/shared';

const WORDS: Array<[RegExp, ReconciledWallet]> = [
  [/^(MPESA|VODACOM|VODA)/, 'M-Pesa'],
  [/^(TIGO|MIXX|YAS)/, 'Tigo Pesa'],
  [/^AIRTEL/, 'Airtel Money'],
];

export function walletOfNetwork(network: string | null): ReconciledWallet {
  const word = (network ?? '').toUpperCase().replace(/[^A-Z]/g, '');
  return WORDS.find(([pattern]) => pattern.test(word))?.[1] ?? 'other';
}
