/**
 * The strings of the tender's key (F8) and Enter in Cash received (issue 49), and of a sale paid
 * several ways (issue 51, split.ts); merged by i18n.ts, Swahili typed by English.
 */
export const enTender = {
  'tender.enter_empty_cart': 'The cart is empty: nothing to charge.',
  'tender.enter_none': 'Type the cash received, then Enter (F9 charges without it).',
  'tender.enter_short': 'Not charged: the cash received is {amount} less than the total.',
  'split.toggle': 'Split payment',
  'split.cancel': 'One payment',
  'split.title': 'Paid several ways',
  'split.method': 'Method',
  'split.amount': 'Amount',
  'split.add': 'Add a part',
  'split.remove': 'Remove this part',
  'split.left': 'Left to pay: {amount}',
  'split.covered': 'Paid in full',
  'split.amount_missing': 'Type an amount for each part, or remove it.',
  'split.reference_missing': 'Type the reference from the customer’s SMS or slip.',
  'split.parts': 'Payments',
  'split.enter_left': 'Not charged: {amount} is still to pay.',
  'split.enter_not': 'Not charged: {why}',
};

export const swTender: Record<keyof typeof enTender, string> = {
  'tender.enter_empty_cart': 'Kikapu ni tupu: hakuna cha kulipisha.',
  'tender.enter_none': 'Andika pesa taslimu iliyopokelewa, kisha Enter (F9 inalipisha bila hiyo).',
  'tender.enter_short': 'Haijalipishwa: pesa taslimu iliyopokelewa ni pungufu ya jumla kwa {amount}.',
  'split.toggle': 'Gawa malipo',
  'split.cancel': 'Malipo ya njia moja',
  'split.title': 'Imelipwa kwa njia kadhaa',
  'split.method': 'Njia',
  'split.amount': 'Kiasi',
  'split.add': 'Ongeza sehemu',
  'split.remove': 'Ondoa sehemu hii',
  'split.left': 'Kilichobaki kulipwa: {amount}',
  'split.covered': 'Imelipwa yote',
  'split.amount_missing': 'Andika kiasi cha kila sehemu, au iondoe.',
  'split.reference_missing': 'Andika kumbukumbu kutoka SMS au risiti ya mteja.',
  'split.parts': 'Malipo',
  'split.enter_left': 'Haijalipishwa: bado {amount} kulipwa.',
  'split.enter_not': 'Haijalipishwa: {why}',
};
