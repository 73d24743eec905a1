/**
 * The prescription a sale of a `pom` or `controlled` medicine carries (issue 14). Its own file, with
 * no import from the sync protocol, so the sale and push schemas can carry it without a cycle.
 */
import { z } from 'zod';
import { DateString } from '../common.js';

export const PatientSex = z.enum(['female', 'male']);
export type PatientSex = z.infer<typeof PatientSex>;

/**
 * The prescription a sale of a `pom` or `controlled` medicine carries, as the prescription register
 * records it. Age or date of birth: one of the two is enough, and `checkPrescription` (not this
 * schema) asks for it, so the rule is written once and the schema stays a plain object that can be
 * picked from and extended.
 */
export const Prescription = z
  .object({
    patient_name: z.string().trim().min(1).max(150),
    /** Whole years; for a baby give `patient_date_of_birth` instead. */
    patient_age: z.int().min(0).max(130).optional(),
    patient_date_of_birth: DateString.optional(),
    patient_sex: PatientSex,
    prescriber_name: z.string().trim().min(1).max(150),
    /** The prescriber's registration number with the Medical Council (or their own council). */
    prescriber_registration_number: z.string().trim().min(1).max(50),
    /** The hospital, clinic or dispensary the prescription comes from. */
    facility: z.string().trim().min(1).max(200),
    /** The day the prescriber wrote it (YYYY-MM-DD); not after the day of the sale. */
    date_written: DateString,
  })
  .meta({ id: 'Prescription' });
export type Prescription = z.infer<typeof Prescription>;
