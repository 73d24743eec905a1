/** Pharmacy enumerations: how a medicine is made up, how it may be sold, and what kind of outlet sells it. */
import { z } from 'zod';

export const DosageForm = z.enum(['tablet', 'capsule', 'syrup', 'suspension', 'injection', 'cream', 'ointment', 'drops', 'inhaler', 'suppository', 'powder', 'other']);
export type DosageForm = z.infer<typeof DosageForm>;

export const DrugSchedule = z.enum(['otc', 'pom', 'controlled']);
export type DrugSchedule = z.infer<typeof DrugSchedule>;

export const OutletType = z.enum(['pharmacy', 'addo']);
export type OutletType = z.infer<typeof OutletType>;
