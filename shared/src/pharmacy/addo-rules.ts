/**
 * ADDO (issue 14): a store whose outlet type is `addo` (an accredited drug dispensing outlet) may
 * sell only the medicines on the ADDO-permitted list the platform admin keeps. A medicine is a line
 * whose product has a schedule; anything else (soap, a soda) is not the list's business. A product
 * is on the list when its generic name, strength and dosage form all match an entry, ignoring case
 * and spaces ("Amoxicillin 250 mg" is "amoxicillin 250mg"). A medicine missing any of the three
 * cannot be matched, so it is not permitted. The rule the server and the till both apply.
 *
 * A breach carries a `not_permitted_for_addo` conflict: the till refuses such a sale itself, so one
 * pushed was made against an older list, and the medicine has left the shop.
 */
import type { ErrorCode } from '../errors.js';
import type { ConflictKind, SaleConflict } from '../conflicts.js';
import { addoMatchKey } from './addo.schemas.js';
import type { DosageForm, DrugSchedule, OutletType } from './pharmacy.schemas.js';

export interface AddoEntry {
  generic_name: string;
  strength: string;
  dosage_form: DosageForm;
}

export interface AddoBreach {
  code: Extract<ErrorCode, 'NOT_PERMITTED_FOR_ADDO'>;
  /** `lines.N.product_id`. */
  field: string;
  message: string;
  conflict: SaleConflict & { kind: Extract<ConflictKind, 'not_permitted_for_addo'> };
}

export interface AddoCheckInput {
  outlet_type: OutletType | null | undefined;
  /** The sale's merged lines with their products. */
  lines: Array<{
    index: number;
    product: {
      product_id: string;
      name: string;
      generic_name: string | null | undefined;
      strength: string | null | undefined;
      dosage_form: DosageForm | null | undefined;
      schedule: DrugSchedule | null | undefined;
    };
  }>;
  /** The ADDO-permitted list in force. */
  permitted: AddoEntry[];
}

export function checkAddo(input: AddoCheckInput): AddoBreach[] {
  if (input.outlet_type !== 'addo') return [];
  const permitted = new Set(input.permitted.map(addoMatchKey));
  const breaches: AddoBreach[] = [];
  for (const { index, product: p } of input.lines) {
    if (p.schedule == null) continue;
    const listed =
      p.generic_name &&
      p.strength &&
      p.dosage_form &&
      permitted.has(addoMatchKey({ generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form }));
    if (listed) continue;
    const message = `${p.name} is not on the ADDO list: an ADDO may not sell it`;
    breaches.push({
      code: 'NOT_PERMITTED_FOR_ADDO',
      field: `lines.${index}.product_id`,
      message,
      conflict: { kind: 'not_permitted_for_addo', product_id: p.product_id, message },
    });
  }
  return breaches;
}
