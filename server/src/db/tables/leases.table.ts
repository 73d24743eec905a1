/** Leases on background jobs and their units of work (migration 0028; lib/leases.ts). */
export interface JobLeaseTable {
  /** `job:<name>` for a whole job, `<kind>:<id>` for one unit of work. */
  name: string;
  /** The server instance holding (or that last held) the lease. */
  holder: string;
  /** Fencing token: one more at every take, so a holder that lost the lease can tell. */
  token: number;
  /** When it was taken and when it lapses, epoch ms by the database's clock. */
  taken_at: number;
  expires_at: number;
}
