import type { AddoChangeKind, DosageForm } from '@duka/shared';

/** One medicine on the ADDO-permitted list (platform-wide); removed entries stay, with `version_removed`. */
export interface AddoMedicineTable {
  id: string;
  generic_name: string;
  strength: string;
  dosage_form: DosageForm;
  notes: string | null;
  /** `addoMatchKey` of the entry: unique among the entries still on the list. */
  match_key: string;
  version_added: number;
  version_updated: number;
  version_removed: number | null;
  created_at: number;
  updated_at: number;
  removed_at: number | null;
}

/** One change to the list; `entry` and `previous` are JSON of `AddoMedicineFields`. */
export interface AddoListChangeTable {
  id: string;
  version: number;
  kind: AddoChangeKind;
  entry_id: string;
  entry: string;
  previous: string | null;
  user_id: string | null;
  created_at: number;
}

/** The single row (`id` 'addo') holding the list's current version. */
export interface AddoListStateTable {
  id: string;
  version: number;
  updated_at: number | null;
}
