import type { NotificationCategory } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

export interface NotificationTable {
  id: string;
  org_id: string;
  store_id: string;
  category: NotificationCategory;
  title: string;
  body: Generated<string>;
  link: string | null;
  is_read: Generated<number>;
  read_at: number | null;
  created_at: number;
}
export type NotificationRow = Selectable<NotificationTable>;
