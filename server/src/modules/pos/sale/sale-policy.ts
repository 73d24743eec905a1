/**
 * Where a shop type plugs into the sale: its own rules (`checkRules`, after the rules every shop
 * applies) and the lots a batch-tracked line takes (`takeLots`, inside `takeStock`). The pipeline
 * calls the policy of the store's outlet type and knows nothing of pharmacy; a new shop type adds
 * its policy to POLICIES and leaves the stages as they are.
 */
import type { AddoEntry, ErrorCode, OutletType, Prescription, SaleConflict } from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { type LotsTaken, type LotsWanted, pharmacySalePolicy } from '../../pharmacy/pharmacy.exports.js';

/** What any sale rule reports (sale, credit, FEFO, pharmacy): a conflict when an offline sale that broke it is still booked. */
export interface Breach {
  code: ErrorCode;
  field: string;
  message: string;
  conflict?: SaleConflict;
}

/** What a shop type's rules see of the sale. */
export interface PolicySale {
  outletType: string | null;
  /** The day the sale was made, in the organisation's time zone. */
  today: string;
  lines: ReadonlyArray<{ index: number; product_id: string }>;
  products: ReadonlyMap<string, ProductRow>;
  prescription?: Prescription | null;
  /** The ADDO list entries matching the sale's medicines (read with the set, for an ADDO only). */
  permitted: ReadonlyArray<AddoEntry>;
}

export interface SalePolicy {
  /** The shop type's breaches of this sale, in the order they are answered (none: the sale passes). */
  checkRules(sale: PolicySale): Breach[];
  /** The lots one batch-tracked line takes its units from, and the sellable units that left. */
  takeLots(wanted: LotsWanted): LotsTaken;
}

/** Each outlet type's policy. */
const POLICIES: Record<OutletType, SalePolicy> = {
  pharmacy: pharmacySalePolicy,
  addo: pharmacySalePolicy,
};

/**
 * A store of no outlet type is a shop, and a shop's catalogue may still hold a medicine (an OTC
 * Panadol, tracked by lot) or a `pom` one, which needs its prescription wherever it is sold: so a
 * shop sells by the medicine rules too, which do nothing for a sale without a medicine or a lot.
 */
const SHOP_POLICY: SalePolicy = pharmacySalePolicy;

export function salePolicyFor(outletType: string | null): SalePolicy {
  return (outletType && POLICIES[outletType as OutletType]) || SHOP_POLICY;
}
