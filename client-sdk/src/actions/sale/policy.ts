/**
 * The shop type's part of the sale (issue 50), chosen by the store's outlet type: its own rules
 * in `checkRules` and the lots a line takes in `takeStock`. The server's `SalePolicy` has the same
 * two methods. A new shop type adds a policy here and does not edit the stages.
 *
 * A store without an outlet type gets the medicine policy too: its rules follow the products'
 * own fields (a schedule, batch tracking), so a shop whose products carry neither is not touched
 * by it, and a pharmacy business whose store was never given its outlet type still dispenses by them.
 */
import type { OutletType, Store } from '@duka/shared';
import { addoPolicy } from './policies/addo.js';
import { medicinePolicy } from './policies/medicines.js';
import type { SalePolicy } from './policies/sale-policy.js';

export type { SalePolicy } from './policies/sale-policy.js';

const BY_OUTLET: Record<OutletType, SalePolicy> = { pharmacy: medicinePolicy, addo: addoPolicy };

export function policyFor(store: Store): SalePolicy {
  return store.outlet_type ? BY_OUTLET[store.outlet_type] : medicinePolicy;
}
