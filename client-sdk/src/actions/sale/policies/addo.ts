/**
 * An ADDO's sale (issue 14): `checkAddo` against the till's copy of the ADDO list first (no
 * prescription makes an unlisted medicine sellable in an ADDO), then the medicine rules and lots of
 * any pharmacy. A till that has never fetched the list refuses every medicine there (`NOT_READY`):
 * an empty copy would say "not on the list" of medicines that may well be on it.
 */
import { addoMatchKey, checkAddo } from '@duka/shared';
import { TillError } from '../../../errors.js';
import type { LocalExec } from '../../../local/db.js';
import { getMeta } from '../../../local/meta.js';
import * as reads from '../../../reads.js';
import type { ResolvedSale } from '../draft.js';
import { refuse, type SalePolicy } from './sale-policy.js';
import { medicinePolicy } from './medicines.js';

async function checkAddoList(db: LocalExec, sale: ResolvedSale): Promise<void> {
  const lines = sale.lines.map((l) => ({ ...l, product: sale.products.get(l.product_id)! }));
  const medicines = lines.filter((l) => l.product.schedule != null);
  if (medicines.length && (await getMeta(db, 'addo_list_version')) === undefined) {
    const field = `lines.${medicines[0]!.index}.product_id`;
    throw new TillError('NOT_READY', 'this till has not loaded the ADDO list yet: sync once while online before selling medicines', field);
  }
  // Only the entries that could match these medicines; the rule itself decides.
  const keys = medicines.flatMap(({ product: p }) =>
    p.generic_name && p.strength && p.dosage_form
      ? [addoMatchKey({ generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form })]
      : [],
  );
  refuse(
    checkAddo({
      outlet_type: sale.shop.store.outlet_type,
      lines: lines.map((l) => ({ index: l.index, product: { product_id: l.product_id, ...l.product } })),
      permitted: await reads.addoEntries(db, keys),
    })[0],
  );
}

export const addoPolicy: SalePolicy = {
  async checkRules(db, sale) {
    await checkAddoList(db, sale);
    await medicinePolicy.checkRules(db, sale);
  },
  takeLots: medicinePolicy.takeLots,
};
