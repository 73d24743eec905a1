import type { FiscalEnvironment, FiscalStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A store's virtual fiscal device: settings, TRA's registration, token and counters (docs/fiscal.md). */
export interface FiscalDeviceTable {
  store_id: string;
  org_id: string;
  enabled: Generated<number>;
  environment: FiscalEnvironment;
  tin: string;
  vrn: string | null;
  cert_key: string;
  cert_serial: string;
  /** The .pfx (base64) and its password, sealed with the server key. */
  certificate_enc: string | null;
  certificate_password_enc: string | null;
  /** TRA's registration answer as JSON, without the credentials (those are in credentials_enc). */
  registration: string | null;
  /** `{ username, password }` for the token, sealed. */
  credentials_enc: string | null;
  registered_at: number | null;
  token_enc: string | null;
  token_expires_at: number | null;
  /** The counters of the last receipt numbered: gapless, advanced inside the sale's transaction. */
  last_gc: Generated<number>;
  last_dc: Generated<number>;
  last_znum: string | null;
  /** Which worker is sending the store's queue (several server instances), and since when. */
  claimed_at: number | null;
  stuck_notified_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Where a receipt or a Z report stands with TRA (the queue keeps both alike). */
interface SendState {
  status: Generated<FiscalStatus>;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  last_error: string | null;
  ack_code: string | null;
  acknowledged_at: number | null;
}

export interface FiscalReceiptTable extends SendState {
  id: string;
  org_id: string;
  store_id: string;
  transaction_id: string;
  gc: number;
  dc: number;
  znum: string;
  /** The receipt's DATE and TIME as sent (EAT), as epoch ms. */
  issued_at: number;
  rctvnum: string;
  verify_url: string;
  /** The signed XML as first built; a resend sends exactly this. */
  body: string | null;
  /** ReceiptFigures as JSON, written with the body. */
  figures: string | null;
  created_at: number;
}

export interface FiscalZReportTable extends SendState {
  id: string;
  org_id: string;
  store_id: string;
  znum: string;
  /** The report's totals as JSON (ZFigures). */
  figures: string;
  body: string;
  created_at: number;
}

export type FiscalDeviceRow = Selectable<FiscalDeviceTable>;
export type FiscalReceiptRow = Selectable<FiscalReceiptTable>;
export type FiscalZReportRow = Selectable<FiscalZReportTable>;
