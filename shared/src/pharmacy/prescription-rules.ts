/**
 * Prescriptions (issue 14): a sale line of a `pom` (prescription-only) or `controlled` medicine
 * needs a prescription on the sale, the rule the server and the till both apply. It reports:
 *
 * - each such line when the sale has no prescription: 422 `PRESCRIPTION_REQUIRED` naming the line;
 * - a prescription given without the patient's age or date of birth, or dated after the sale (or a
 *   date of birth after it): 400 `VALIDATION_ERROR` naming the prescription's field. The other fields
 *   are required by the `Prescription` schema itself.
 *
 * Every breach carries a `prescription` conflict: a till refuses such a sale itself, so one that
 * reaches the server on push was made before the product became prescription-only there, and the
 * medicine has left the shop; the server books it and the owner completes the register.
 *
 * No validity period is enforced: the Pharmacy (Prescription Handling and Control) Regulations 2020
 * (GN 266 of 2020) set the rules and we found no period in them to cite; add one here when we do.
 */
import type { ErrorCode } from '../errors.js';
import type { ConflictKind, SaleConflict } from '../conflicts.js';
import type { DrugSchedule } from './pharmacy.schemas.js';
import type { Prescription } from './pharmacy-rules.schemas.js';

/** The schedules a prescription is needed for. */
export const PRESCRIPTION_SCHEDULES: readonly DrugSchedule[] = ['pom', 'controlled'];

export interface PrescriptionBreach {
  code: Extract<ErrorCode, 'PRESCRIPTION_REQUIRED' | 'VALIDATION_ERROR'>;
  /** `lines.N.product_id`, or `prescription.<field>`. */
  field: string;
  message: string;
  conflict: SaleConflict & { kind: Extract<ConflictKind, 'prescription'> };
}

export interface PrescriptionCheckInput {
  /** The sale's merged lines; `schedule` is null for what is not a medicine. */
  lines: Array<{ index: number; product_id: string; name: string; schedule: DrugSchedule | null | undefined }>;
  prescription?: Prescription | null;
  /** `YYYY-MM-DD` in the organisation's time zone: the day the sale was made. */
  today: string;
}

export function needsPrescription(schedule: DrugSchedule | null | undefined): boolean {
  return schedule != null && PRESCRIPTION_SCHEDULES.includes(schedule);
}

export function checkPrescription(input: PrescriptionCheckInput): PrescriptionBreach[] {
  const breaches: PrescriptionBreach[] = [];
  const rx = input.prescription;
  if (!rx) {
    for (const l of input.lines) {
      if (!needsPrescription(l.schedule)) continue;
      const what = l.schedule === 'controlled' ? 'a controlled medicine' : 'prescription-only';
      const message = `${l.name} is ${what}: the sale needs a prescription`;
      breaches.push({
        code: 'PRESCRIPTION_REQUIRED',
        field: `lines.${l.index}.product_id`,
        message,
        conflict: { kind: 'prescription', product_id: l.product_id, message },
      });
    }
    return breaches;
  }
  const invalid = (field: keyof Prescription, message: string) =>
    breaches.push({ code: 'VALIDATION_ERROR', field: `prescription.${field}`, message, conflict: { kind: 'prescription', message } });
  if (rx.patient_age === undefined && !rx.patient_date_of_birth)
    invalid('patient_age', "the prescription needs the patient's age or date of birth");
  // YYYY-MM-DD dates compare as strings.
  if (rx.patient_date_of_birth && rx.patient_date_of_birth > input.today) {
    invalid(
      'patient_date_of_birth',
      `the patient's date of birth (${rx.patient_date_of_birth}) is after the day of the sale (${input.today})`,
    );
  }
  if (rx.date_written > input.today) {
    invalid('date_written', `the prescription is dated ${rx.date_written}, after the day of the sale (${input.today})`);
  }
  return breaches;
}
