/**
 * The prescription register on the wire (issue 14): one entry per sale of a `pom` or `controlled`
 * medicine, append-only. A correction is a new entry pointing at the one it corrects; the corrected
 * entry answers who corrected it. The rule a prescription must meet is `checkPrescription`.
 */
import { z } from 'zod';
import { DateString, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { TransactionStatus } from '../pos/pos.schemas.js';
import { LineBatch } from './batch.schemas.js';
import { DosageForm, DrugSchedule } from './pharmacy.schemas.js';
import { Prescription } from './prescription.schemas.js';

/** A prescription as the register holds it: age and date of birth are null when not given. */
export const RecordedPrescription = Prescription.extend({
  patient_age: z.int().nullable(),
  patient_date_of_birth: DateString.nullable(),
}).meta({ id: 'RecordedPrescription' });
export type RecordedPrescription = z.infer<typeof RecordedPrescription>;

/** A prescription medicine the sale dispensed, as it was named when sold, with the lots it came from. */
export const PrescriptionItem = z
  .object({
    product_id: z.uuid(),
    product_name: z.string(),
    generic_name: z.string().nullable(),
    strength: z.string().nullable(),
    dosage_form: DosageForm.nullable(),
    schedule: DrugSchedule,
    qty: z.int(),
    lots: z
      .array(LineBatch)
      .meta({ description: 'The lots the sale line took (empty when the product does not track batches), read from the sale' }),
  })
  .meta({ id: 'PrescriptionItem' });
export type PrescriptionItem = z.infer<typeof PrescriptionItem>;

export const PrescriptionEntry = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    transaction_id: z.uuid(),
    receipt_number: z.string(),
    sale_status: TransactionStatus.meta({ description: 'The sale as it stands now: a refunded or void sale keeps its entry' }),
    dispensed_at: Timestamp.meta({ description: 'When the sale was made (the till’s time for an offline sale)' }),
    prescription: RecordedPrescription.nullable().meta({
      description:
        'Null when an offline sale reached the server without one (booked with a `prescription` conflict): complete it with a correction',
    }),
    items: z.array(PrescriptionItem),
    corrects_id: z.uuid().nullable().meta({ description: 'The entry this one corrects' }),
    correction_reason: z.string().nullable(),
    corrected_by_id: z.uuid().nullable().meta({ description: 'The entry that corrects this one; null while this is the current one' }),
    recorded_by_id: z.uuid().nullable(),
    recorded_by_name: z.string().nullable(),
    created_at: Timestamp.meta({ description: 'When the entry was written' }),
  })
  .meta({ id: 'PrescriptionEntry' });
export type PrescriptionEntry = z.infer<typeof PrescriptionEntry>;

const Contains = z.string().trim().min(1).max(100);

export const ListPrescriptionsQuery = PageQuery.extend({
  date_from: DateString.optional().meta({ description: 'Dispensed on or after this day (organisation’s calendar)' }),
  date_to: DateString.optional().meta({ description: 'Dispensed on or before this day (organisation’s calendar)' }),
  product_id: z.uuid().optional(),
  patient: Contains.optional().meta({ description: 'Patient name contains, any case' }),
  prescriber: Contains.optional().meta({ description: 'Prescriber name or registration number contains, any case' }),
});
export type ListPrescriptionsQuery = z.infer<typeof ListPrescriptionsQuery>;

/** The CSV takes the same filters, without paging: every matching entry, one row per item. */
export const PrescriptionsCsvQuery = ListPrescriptionsQuery.omit({ page: true, page_size: true });
export type PrescriptionsCsvQuery = z.infer<typeof PrescriptionsCsvQuery>;

export const CorrectPrescriptionInput = z
  .object({
    prescription: Prescription.meta({ description: 'The whole prescription as it should read' }),
    reason: z.string().trim().min(1).max(500),
  })
  .meta({ id: 'CorrectPrescriptionInput' });
export type CorrectPrescriptionInput = z.infer<typeof CorrectPrescriptionInput>;
