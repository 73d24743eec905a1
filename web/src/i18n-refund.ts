/** The strings of refunding part of a sale at the Sales screen (issue 51, refund-part.ts); merged by i18n.ts, Swahili typed by English. */
export const enRefund = {
  'refund_part.button': 'Refund part',
  'refund_part.title': 'Refund part of {receipt}',
  'refund_part.left': 'up to {qty}',
  'refund_part.qty': 'How much of {name} comes back',
  'refund_part.wrong_whole': 'Whole pieces only.',
  'refund_part.wrong_decimal': 'More than 0, at most 3 decimals.',
  'refund_part.too_much': 'Only {qty} is left to give back.',
  'refund_part.amount': 'Comes back: {amount}',
  'refund_part.confirm': 'Refund {amount}',
  'refund_part.done': '{amount} of {receipt} refunded',
  'sales.refunded_part': 'Refunded {amount}',
};

export const swRefund: Record<keyof typeof enRefund, string> = {
  'refund_part.button': 'Rudisha sehemu',
  'refund_part.title': 'Rudisha sehemu ya {receipt}',
  'refund_part.left': 'hadi {qty}',
  'refund_part.qty': 'Kiasi cha {name} kinachorudi',
  'refund_part.wrong_whole': 'Vipande kamili tu.',
  'refund_part.wrong_decimal': 'Zaidi ya 0, hadi desimali 3.',
  'refund_part.too_much': 'Zimebaki {qty} tu za kurudisha.',
  'refund_part.amount': 'Kinachorudishwa: {amount}',
  'refund_part.confirm': 'Rudisha {amount}',
  'refund_part.done': '{amount} ya {receipt} imerudishwa',
  'sales.refunded_part': 'Imerudishwa {amount}',
};
