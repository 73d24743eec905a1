/** Per organisation, the highest change-log version pruned (migration 0006): older cursors must re-bootstrap. */
export interface ChangeLogFloorTable {
  org_id: string;
  version: number;
  pruned_at: number;
}
