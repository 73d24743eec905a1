/** Facts about the installation every server instance must agree on (migration 0037; db/signing-secret.ts). */
export interface PlatformSettingTable {
  /** `secret_fingerprint`: the JWT_SECRET's fingerprint, never the secret. */
  name: string;
  value: string;
  /** Epoch ms. */
  updated_at: number;
}
