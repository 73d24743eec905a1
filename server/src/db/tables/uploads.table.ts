import type { UploadKind } from '@duka/shared';
import type { Selectable } from 'kysely';

/** An uploaded file. `key` is its storage key (begins with `org_id`); `file_name` its last, random, segment. */
export interface UploadTable {
  id: string;
  key: string;
  file_name: string;
  org_id: string;
  store_id: string | null;
  /** As uploaded. */
  name: string;
  size: number;
  content_type: string;
  kind: UploadKind;
  created_by: string | null;
  created_at: number;
}
export type UploadRow = Selectable<UploadTable>;
