/**
 * The pharmacy enumerations, written once: a product's drug schedule and dosage form, and a
 * store's outlet type. API schemas, table types, the meta route and the pharmacy rules derive from
 * these; migrations keep their own literals because they are frozen.
 */
import { z } from 'zod';

/** `otc` over the counter, `pom` prescription-only medicine, `controlled` (a register is kept). */
export const DrugSchedule = z.enum(['otc', 'pom', 'controlled']);
export type DrugSchedule = z.infer<typeof DrugSchedule>;

/** A store that dispenses medicine: a licensed pharmacy or an ADDO (accredited drug dispensing outlet). */
export const OutletType = z.enum(['pharmacy', 'addo']);
export type OutletType = z.infer<typeof OutletType>;

export const DosageForm = z.enum([
  'tablet',
  'capsule',
  'syrup',
  'suspension',
  'injection',
  'cream',
  'ointment',
  'drops',
  'inhaler',
  'suppository',
  'powder',
  'other',
]);
export type DosageForm = z.infer<typeof DosageForm>;
