import type { OutletType } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

export interface StoreTable {
  id: string;
  org_id: string;
  name: string;
  code: string;
  phone: string | null;
  email: string | null;
  area: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  open_hours: string | null;
  color: string | null;
  status: Generated<string>;
  vat_enabled: Generated<number>;
  outlet_type: OutletType | null;
  /** 1 while the store's fiscal device is switched on (mirrors fiscal_devices.enabled, for the Store shape). */
  fiscal: Generated<number>;
  is_active: Generated<number>;
  /** Last gapless sale number given in this store. */
  last_number: Generated<number>;
  created_at: number;
  updated_at: number;
}
export type StoreRow = Selectable<StoreTable>;
