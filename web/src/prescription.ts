/**
 * The prescription a sale of a `pom` or `controlled` medicine carries (docs/pharmacy.md), as the
 * cashier types it at the browser till: plain data and pure functions. The fields are the shared
 * `Prescription` schema's; the rule asking for the age or the date of birth is the shared
 * `checkPrescription`'s. A date after the day of the sale is the SDK's `sell` to refuse, on the
 * organisation's calendar, with the server's message.
 */
import { needsPrescription, Prescription } from '@duka/shared';
import type { Cart } from './cart.js';

/** The form as typed: every field a string ('' untouched); the sex '' until chosen. */
export interface RxDraft {
  patient_name: string;
  patient_age: string;
  patient_date_of_birth: string;
  patient_sex: '' | 'female' | 'male';
  prescriber_name: string;
  prescriber_registration_number: string;
  facility: string;
  date_written: string;
}
export type RxField = keyof RxDraft;

export const emptyRx = (): RxDraft => ({
  patient_name: '',
  patient_age: '',
  patient_date_of_birth: '',
  patient_sex: '',
  prescriber_name: '',
  prescriber_registration_number: '',
  facility: '',
  date_written: '',
});

/** The cart's lines whose medicine needs a prescription (`pom`, `controlled`), by name. */
export const rxMedicines = (cart: Cart): string[] => [
  ...new Set(cart.lines.filter((l) => needsPrescription(l.product.schedule)).map((l) => l.product.name)),
];

/** The prescription the draft makes, as `till.sell` takes it: age or date of birth as given. */
export function toPrescription(d: RxDraft): Prescription {
  const age = d.patient_age.trim();
  return {
    patient_name: d.patient_name.trim(),
    ...(age !== '' ? { patient_age: Number(age) } : {}),
    ...(d.patient_date_of_birth ? { patient_date_of_birth: d.patient_date_of_birth } : {}),
    patient_sex: d.patient_sex as Prescription['patient_sex'],
    prescriber_name: d.prescriber_name.trim(),
    prescriber_registration_number: d.prescriber_registration_number.trim(),
    facility: d.facility.trim(),
    date_written: d.date_written,
  };
}

/** The fields still missing or wrong, in the form's order (age stands for "age or date of birth"); [] when complete. */
export function rxMissing(d: RxDraft): RxField[] {
  const parsed = Prescription.safeParse(toPrescription(d));
  const wrong = new Set<string>(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0])));
  if (d.patient_age.trim() === '' && !d.patient_date_of_birth) wrong.add('patient_age');
  return (Object.keys(emptyRx()) as RxField[]).filter((f) => wrong.has(f));
}
