/**
 * The ADDO-permitted medicines list: platform data the admin keeps, which every ADDO (accredited
 * drug dispensing outlet) reads. Each change to the list is one version; a till that holds version
 * N knows it is current when the server's version is N.
 */
import { z } from 'zod';
import { Timestamp } from '../common.js';
import { Envelope, PageMeta, PageQuery } from '../envelope.js';
import { DosageForm } from './pharmacy.schemas.js';

const GenericName = z.string().trim().min(1).max(120).meta({ example: 'Paracetamol' });
const Strength = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .meta({ example: '500 mg', description: 'As printed on the pack, e.g. `500 mg`, `125 mg/5 ml`' });
const Notes = z.string().trim().max(500).nullable().meta({ description: 'e.g. a pack size or a use the list restricts it to' });

/** What identifies a medicine on the list and what the admin writes about it. */
export const AddoMedicineFields = z.object({ generic_name: GenericName, strength: Strength, dosage_form: DosageForm, notes: Notes });
export type AddoMedicineFields = z.infer<typeof AddoMedicineFields>;

export const AddoMedicine = AddoMedicineFields.extend({
  id: z.uuid(),
  version_added: z.int().meta({ description: 'The list version in which the entry was added' }),
  version_updated: z.int().meta({ description: 'The list version of its last change (its addition or a correction)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).meta({ id: 'AddoMedicine' });
export type AddoMedicine = z.infer<typeof AddoMedicine>;

export const CreateAddoMedicineInput = AddoMedicineFields.extend({ notes: Notes.optional() }).meta({ id: 'CreateAddoMedicineInput' });
export type CreateAddoMedicineInput = z.infer<typeof CreateAddoMedicineInput>;

export const UpdateAddoMedicineInput = AddoMedicineFields.partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field')
  .meta({ id: 'UpdateAddoMedicineInput', description: 'A correction of an entry on the list; fields left out keep their value' });
export type UpdateAddoMedicineInput = z.infer<typeof UpdateAddoMedicineInput>;

export const ListAddoMedicinesQuery = PageQuery.extend({
  search: z.string().trim().min(1).max(100).optional().meta({ description: 'Generic name or strength contains, any case' }),
  dosage_form: DosageForm.optional(),
});
export type ListAddoMedicinesQuery = z.infer<typeof ListAddoMedicinesQuery>;

/** A page of the current list, with the list's version beside the page. */
export const AddoListMeta = PageMeta.extend({
  version: z.int().meta({ description: 'The current version of the whole list (0 before its first entry)' }),
}).meta({ id: 'AddoListMeta' });
export type AddoListMeta = z.infer<typeof AddoListMeta>;
/** A page of the list with its version: the answer of the admin's and the shops' list routes. */
export const AddoListPage = Envelope(z.array(AddoMedicine), AddoListMeta);

export const AddoChangeKind = z.enum(['added', 'corrected', 'removed']).meta({ id: 'AddoChangeKind' });
export type AddoChangeKind = z.infer<typeof AddoChangeKind>;

export const AddoListChange = z
  .object({
    version: z.int().meta({ description: 'The list version this change made' }),
    kind: AddoChangeKind,
    entry_id: z.uuid(),
    entry: AddoMedicineFields.meta({ description: 'The entry as the change left it (as it was when removed)' }),
    previous: AddoMedicineFields.nullable().meta({ description: 'The entry before a correction; null otherwise' }),
    user_id: z.uuid().nullable(),
    user_name: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'AddoListChange' });
export type AddoListChange = z.infer<typeof AddoListChange>;

export const ListAddoHistoryQuery = PageQuery.extend({
  entry_id: z.uuid().optional().meta({ description: 'Only the changes of this entry' }),
  since_version: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Only changes after this version (what a till holding it has missed)' }),
});
export type ListAddoHistoryQuery = z.infer<typeof ListAddoHistoryQuery>;

const squash = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/**
 * The identity of a medicine on the list: generic name, strength and dosage form, compared
 * without case or spaces (`Paracetamol 500 mg tablet` is `paracetamol|500mg|tablet`), so
 * `500mg` and `500 MG` are one entry. The admin's duplicate check and the ADDO sale check
 * (server and till) compare with this one key.
 */
export function addoMatchKey(m: { generic_name: string; strength: string; dosage_form: DosageForm }): string {
  return `${squash(m.generic_name)}|${squash(m.strength)}|${m.dosage_form}`;
}
