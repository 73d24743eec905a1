/**
 * The strings of a cashier's whole day (issue 37): signing in offline, the guards that keep unsent
 * sales, refused work and conflicts to act on, the keyboard and the phone layout. Kept beside
 * i18n.ts, which merges them; Swahili typed by English, so a missing string fails the typecheck.
 */
export const enDay = {
  'status.conflicts_one': '1 conflict',
  'status.rejected_one': '1 refused',
  'signin.offline_done': 'Signed in on this till without the network. Sales wait here until someone signs in online.',
  'signin.offline_failed': 'The server cannot be reached, and this till does not know that password for that account.',
  'signout.blocked.title': 'Sales are still waiting to be sent',
  'signout.blocked.body':
    '{n} sale(s) or changes have not reached the server yet. Signing out now would leave them here until someone signs in again. Connect to the network and send them first.',
  'signout.send_now': 'Send now',
  'signout.stay': 'Stay signed in',
  'storage.not_persisted':
    'This browser has not promised to keep the till’s data: if the device runs short of space it may delete sales not yet sent. Install the till (Add to home screen) or allow storage for this site, and sync often.',
  'storage.dismiss': 'I understand',
  'problems.refused.title': 'Refused by the server',
  'problems.refused.none': 'Nothing was refused.',
  'problems.refused.explain':
    'The server did not accept these. What the till did for them has been undone here; act on each, then mark it dealt with.',
  'refused.sale.create':
    'Sale {receipt} ({total}) was not booked: {reason}. The stock it took is back on the shelf; the money taken is not in the books. Tell the owner.',
  'refused.sale.refund':
    'The refund of {receipt} ({total}) was refused: {reason}. The sale still counts as paid and its stock stays sold. If you paid the customer, tell the owner.',
  'refused.sale.void':
    'The void of {receipt} ({total}) was refused: {reason}. The sale still counts as paid. If you gave money back, tell the owner.',
  'refused.credit.payment': 'A credit payment of {total} was refused: {reason}. The customer still owes it in the books.',
  'refused.expense.create': 'An expense of {total} was refused: {reason}. It is not in the books.',
  'refused.stock.adjust': 'A stock change was refused: {reason}. The stock is as the server has it.',
  'refused.other': 'A change ({type}) was refused: {reason}.',
  'refused.dismiss': 'Dealt with',
  'conflict.open_receipt': 'Receipt {receipt}',
  'conflict.dismiss': 'Seen',
  'conflict.sentence.stale_price': '{product} was sold at a price the shop had changed.',
  'conflict.sentence.price_mismatch': '{product} was sold at a price the shop never had.',
  'conflict.sentence.oversold': 'More {product} was sold than the shop had in stock.',
  'conflict.sentence.credit_limit': 'The sale took the customer over their credit limit.',
  'conflict.sentence.inactive_product': '{product} was sold after the shop stopped selling it.',
  'conflict.sentence.permission': 'A discount was given without the discount permission.',
  'conflict.sentence.dispensed_unsellable_batch': '{product} was dispensed from a batch that was expired, recalled or held.',
  'conflict.sentence.prescription': '{product} was dispensed without a complete prescription.',
  'conflict.sentence.not_permitted_for_addo': '{product} is not on this ADDO’s permitted list.',
  'conflict.sentence.cashier_mismatch': 'The sale was sent by another user than the one who rang it up, and is booked to the sender.',
  'conflict.sentence.clock': 'The till’s clock was wrong when this sale was made; it is booked at the time the server received it.',
  'conflict.product': 'a product',
  'cart.oversold': 'Only {n} in stock here: selling {qty} leaves the count short. Check the shelf.',
  'cart.open': 'Cart · {n} · {total}',
  'cart.close': 'Back to products',
  'keys.hint': 'F8: cash received · F9 or Ctrl+Enter: charge · Esc: close · 3*code: three at once',
  'receipt.next_scan': 'Scan the next sale',
  'sales.search': 'Receipt number (MAD-T1-5 or MAD-000005)',
  'sales.reversal_refused': 'refund refused',
  'clock.behind':
    'This device’s clock is {minutes} minutes behind the server’s. Set the right time on this device, so that its sales carry the right time.',
  'clock.ahead':
    'This device’s clock is {minutes} minutes ahead of the server’s. Set the right time: sales are booked at the time the server receives them until it is fixed.',
} as const;

export const swDay: Record<keyof typeof enDay, string> = {
  'status.conflicts_one': 'Mgongano 1',
  'status.rejected_one': '1 imekataliwa',
  'signin.offline_done': 'Umeingia kwenye till hii bila mtandao. Mauzo yanasubiri hapa hadi mtu aingie mtandaoni.',
  'signin.offline_failed': 'Seva haipatikani, na till hii haijui nenosiri hilo kwa akaunti hiyo.',
  'signout.blocked.title': 'Bado kuna mauzo yanayosubiri kutumwa',
  'signout.blocked.body':
    'Mauzo au mabadiliko {n} bado hayajafika kwenye seva. Ukitoka sasa yatabaki hapa hadi mtu aingie tena. Unganisha mtandao na uyatume kwanza.',
  'signout.send_now': 'Tuma sasa',
  'signout.stay': 'Endelea kuwa ndani',
  'storage.not_persisted':
    'Kivinjari hiki hakijaahidi kuhifadhi data ya till: nafasi ikipungua kinaweza kufuta mauzo ambayo bado hayajatumwa. Sakinisha till (Ongeza kwenye skrini ya mwanzo) au ruhusu hifadhi kwa tovuti hii, na sawazisha mara kwa mara.',
  'storage.dismiss': 'Nimeelewa',
  'problems.refused.title': 'Yaliyokataliwa na seva',
  'problems.refused.none': 'Hakuna kilichokataliwa.',
  'problems.refused.explain':
    'Seva haikukubali haya. Till imeyatengua hapa; shughulikia kila moja, kisha weka alama kuwa limeshughulikiwa.',
  'refused.sale.create':
    'Mauzo {receipt} ({total}) hayakuwekwa: {reason}. Bidhaa zimerudi kwenye rafu; pesa iliyopokelewa haimo kwenye hesabu. Mwambie mwenye duka.',
  'refused.sale.refund':
    'Kurejesha pesa kwa {receipt} ({total}) kumekataliwa: {reason}. Mauzo bado yamelipwa na bidhaa bado zimeuzwa. Kama ulimlipa mteja, mwambie mwenye duka.',
  'refused.sale.void':
    'Kufuta {receipt} ({total}) kumekataliwa: {reason}. Mauzo bado yamelipwa. Kama ulirudisha pesa, mwambie mwenye duka.',
  'refused.credit.payment': 'Malipo ya deni ya {total} yamekataliwa: {reason}. Mteja bado anadaiwa kwenye hesabu.',
  'refused.expense.create': 'Matumizi ya {total} yamekataliwa: {reason}. Hayamo kwenye hesabu.',
  'refused.stock.adjust': 'Mabadiliko ya stoku yamekataliwa: {reason}. Stoku ni kama ilivyo kwenye seva.',
  'refused.other': 'Badiliko ({type}) limekataliwa: {reason}.',
  'refused.dismiss': 'Limeshughulikiwa',
  'conflict.open_receipt': 'Risiti {receipt}',
  'conflict.dismiss': 'Nimeona',
  'conflict.sentence.stale_price': '{product} iliuzwa kwa bei ambayo duka lilikuwa limeibadilisha.',
  'conflict.sentence.price_mismatch': '{product} iliuzwa kwa bei ambayo duka halijawahi kuwa nayo.',
  'conflict.sentence.oversold': '{product} iliuzwa zaidi ya stoku iliyokuwepo.',
  'conflict.sentence.credit_limit': 'Mauzo yalimpitisha mteja kikomo chake cha deni.',
  'conflict.sentence.inactive_product': '{product} iliuzwa baada ya duka kuacha kuiuza.',
  'conflict.sentence.permission': 'Punguzo lilitolewa bila ruhusa ya punguzo.',
  'conflict.sentence.dispensed_unsellable_batch': '{product} ilitolewa kutoka bechi iliyokwisha muda, iliyorejeshwa au iliyozuiliwa.',
  'conflict.sentence.prescription': '{product} ilitolewa bila dawa-cheti kamili.',
  'conflict.sentence.not_permitted_for_addo': '{product} haimo kwenye orodha ya ADDO hii.',
  'conflict.sentence.cashier_mismatch': 'Mauzo yalitumwa na mtumiaji mwingine, si aliyeyauza, na yamewekwa kwa aliyeyatuma.',
  'conflict.sentence.clock': 'Saa ya till ilikuwa si sahihi mauzo haya yalipofanyika; yamewekwa kwa saa ambayo seva iliyapokea.',
  'conflict.product': 'bidhaa',
  'cart.oversold': 'Zipo {n} tu hapa: kuuza {qty} kunaacha hesabu pungufu. Angalia rafu.',
  'cart.open': 'Kikapu · {n} · {total}',
  'cart.close': 'Rudi kwenye bidhaa',
  'keys.hint': 'F8: pesa iliyopokelewa · F9 au Ctrl+Enter: lipisha · Esc: funga · 3*nambari: tatu kwa pamoja',
  'receipt.next_scan': 'Skani mauzo yanayofuata',
  'sales.search': 'Nambari ya risiti (MAD-T1-5 au MAD-000005)',
  'sales.reversal_refused': 'kurejesha kumekataliwa',
  'clock.behind':
    'Saa ya kifaa hiki iko nyuma ya saa ya seva kwa dakika {minutes}. Weka saa sahihi kwenye kifaa hiki, ili mauzo yake yawe na saa sahihi.',
  'clock.ahead':
    'Saa ya kifaa hiki iko mbele ya saa ya seva kwa dakika {minutes}. Weka saa sahihi: hadi hapo mauzo yanawekwa kwa saa ambayo seva inayapokea.',
};
