import type { CustomerSegment } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** Money in cents. `credit_limit` 0 means no limit. */
export interface CustomerTable {
  id: string;
  org_id: string;
  name: string;
  phone: string | null;
  email: string | null;
  segment: Generated<CustomerSegment>;
  credit_limit: Generated<number>;
  notes: string | null;
  is_active: Generated<number>;
  total_spend: Generated<number>;
  visit_count: Generated<number>;
  first_purchase_at: number | null;
  last_purchase_at: number | null;
  created_at: number;
  updated_at: number;
}
export type CustomerRow = Selectable<CustomerTable>;
