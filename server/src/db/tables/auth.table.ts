import type { Generated, Selectable } from 'kysely';

export interface RefreshTokenTable {
  id: string;
  family_id: string;
  user_id: string;
  store_id: string | null;
  /** JSON array of authentication methods, carried into every token of the family. */
  amr: string;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  created_at: number;
  /** The token this one was issued in exchange for (null for a sign-in). */
  replaces: string | null;
}

export interface OtpTable {
  id: string;
  user_id: string;
  purpose: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
}
/** Sign-in failure counts and locks (migration 0023; modules/auth/services/sign-in-guard.ts). */
export interface AuthCounterTable {
  key: string;
  count: number;
  /** The count is forgotten after this time (epoch ms). */
  window_end: number;
  locked_until: number | null;
}

export type RefreshTokenRow = Selectable<RefreshTokenTable>;
export type OtpRow = Selectable<OtpTable>;
