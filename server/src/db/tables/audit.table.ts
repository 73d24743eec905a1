/** The audit trail: what users did (lib/audit.ts writes it). */
export interface AuditLogTable {
  id: string;
  org_id: string | null;
  store_id: string | null;
  user_id: string | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  description: string;
  created_at: number;
}
