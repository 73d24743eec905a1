/**
 * The enumerations and the prescription of the pharmacy rules (issue 14), kept beside the
 * catalogue's `DrugSchedule`, `OutletType` and `DosageForm` in `pharmacy.schemas.ts`.
 */
import type { z } from 'zod';
import { ConflictKind } from '../conflicts.js';

export { BatchAction, BatchMovementKind, BatchStatus } from './batch.schemas.js';

/** The conflicts an offline pharmacy sale can raise and still be booked: the medicine has left the shop. */
export const PharmacyConflictKind = ConflictKind.extract(['dispensed_unsellable_batch', 'prescription', 'not_permitted_for_addo']);
export type PharmacyConflictKind = z.infer<typeof PharmacyConflictKind>;

export { PatientSex, Prescription } from './prescription.schemas.js';
