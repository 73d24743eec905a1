import type { DosageForm, DrugSchedule, PatientSex } from '@duka/shared';
import type { Selectable } from 'kysely';

/**
 * One entry of the prescription register (issue 14): never updated or deleted. A correction is a
 * new row whose `corrects_id` names the row it corrects (at most one per row). The prescription's
 * fields are null when an offline sale came without one. `dispensed_at` is the sale's time.
 */
export interface PrescriptionTable {
  id: string;
  org_id: string;
  store_id: string;
  transaction_id: string;
  receipt_number: string;
  dispensed_at: number;
  patient_name: string | null;
  patient_age: number | null;
  patient_date_of_birth: string | null;
  patient_sex: PatientSex | null;
  prescriber_name: string | null;
  prescriber_registration_number: string | null;
  facility: string | null;
  date_written: string | null;
  corrects_id: string | null;
  correction_reason: string | null;
  recorded_by: string | null;
  created_at: number;
}

/** A prescription medicine an entry's sale dispensed, as named when sold; its lots are the sale's. */
export interface PrescriptionItemTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  id: string;
  prescription_id: string;
  position: number;
  product_id: string;
  product_name: string;
  generic_name: string | null;
  strength: string | null;
  dosage_form: DosageForm | null;
  schedule: DrugSchedule;
  qty: number;
}

export type PrescriptionRow = Selectable<PrescriptionTable>;
export type PrescriptionItemRow = Selectable<PrescriptionItemTable>;
