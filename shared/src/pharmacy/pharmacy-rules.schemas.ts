/**
 * The enumerations and the prescription of the pharmacy rules (issue 14), kept beside the
 * catalogue's `DrugSchedule`, `OutletType` and `DosageForm` in `pharmacy.schemas.ts`.
 */
import { z } from 'zod';
import { DateString } from '../common.js';
import { ConflictKind } from '../sync/protocol.js';

/**
 * Where a batch stands. Only `sellable` units are stock; `quarantined` (refunded, awaiting
 * inspection), `expired` and `recalled` units are held but never sold; `disposed` is the end.
 */
export const BatchStatus = z.enum(['sellable', 'quarantined', 'expired', 'recalled', 'disposed']);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** What moves a batch from one status to another (`checkBatchTransition`); `expire` is the midnight job's. */
export const BatchAction = z.enum(['release', 'dispose', 'recall', 'expire']);
export type BatchAction = z.infer<typeof BatchAction>;

/** A line of the controlled-drug register: every way units of a controlled medicine come and go. */
export const BatchMovementKind = z.enum(['received', 'dispensed', 'refunded', 'adjusted', 'disposed']);
export type BatchMovementKind = z.infer<typeof BatchMovementKind>;

/** The conflicts an offline pharmacy sale can raise and still be booked: the medicine has left the shop. */
export const PharmacyConflictKind = ConflictKind.extract(['dispensed_unsellable_batch', 'prescription', 'not_permitted_for_addo']);
export type PharmacyConflictKind = z.infer<typeof PharmacyConflictKind>;

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
