import type { ReviewTrigger } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

export interface ReviewTable {
  id: string;
  org_id: string;
  store_id: string;
  user_id: string | null;
  rating: number;
  title: string;
  body: string;
  trigger: ReviewTrigger;
  /** Shown on the public list; platform admins may hide one. */
  is_published: Generated<number>;
  created_at: number;
}
export type ReviewRow = Selectable<ReviewTable>;
