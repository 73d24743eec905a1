/**
 * What pharmacy adds to a sale, as the policy the sale pipeline calls (pos/sale/sale-policy.ts
 * declares its shape; pharmacy ranks below pos, so it cannot import it and matches it instead):
 * the dispensing rules (an ADDO's list, a prescription for a `pom` or `controlled` medicine) and the
 * lots a batch-tracked line takes (FEFO, quarantine, the unallocated lot). A sale with no medicine
 * and no batch-tracked line meets neither.
 */
import { checkDispensing } from '../addo/dispensing-checks.js';
import { takeSaleLots } from '../lots/take-sale-lots.js';

export const pharmacySalePolicy = {
  checkRules: checkDispensing,
  takeLots: takeSaleLots,
};
