import type { StaffMember, StoreWithKpis } from '@duka/shared';
import { useList } from '../../ui/list.js';

export const fullName = (m: Pick<StaffMember, 'first_name' | 'last_name'>) => `${m.first_name} ${m.last_name}`.trim();

/** The stores, by id, for naming a member's store (GET /stores is the owner's, as Staff is). */
export function useStoreNames(): Map<string, string> {
  const { rows } = useList<StoreWithKpis>('/stores');
  return new Map((rows ?? []).map((s) => [s.id, s.name]));
}
