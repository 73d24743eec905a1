/** The strings of the tender's key (F8) and Enter in Cash received (issue 49); merged by i18n.ts, Swahili typed by English. */
export const enTender = {
  'tender.enter_empty_cart': 'The cart is empty: nothing to charge.',
  'tender.enter_none': 'Type the cash received, then Enter (F9 charges without it).',
  'tender.enter_short': 'Not charged: the cash received is {amount} less than the total.',
};

export const swTender: Record<keyof typeof enTender, string> = {
  'tender.enter_empty_cart': 'Kikapu ni tupu: hakuna cha kulipisha.',
  'tender.enter_none': 'Andika pesa taslimu iliyopokelewa, kisha Enter (F9 inalipisha bila hiyo).',
  'tender.enter_short': 'Haijalipishwa: pesa taslimu iliyopokelewa ni pungufu ya jumla kwa {amount}.',
};
