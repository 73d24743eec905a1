/** Organisations as the whole server sees them: the row-to-API mapping, the lookup and the time zone. */
import { DEFAULT_SCALE_BARCODES, fromCents, type Organisation, ScaleBarcodeConfig } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { OrganisationRow } from '../../db/tables/accounts.table.js';
import { iso } from '../../lib/clock.js';
import { DEFAULT_TIMEZONE } from '../../lib/time.js';

export function toOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    legal_name: row.legal_name,
    tin: row.tin,
    business_type: row.business_type,
    region: row.region,
    district: row.district,
    ward: row.ward,
    street: row.street,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    phone: row.phone,
    email: row.email,
    logo: row.logo,
    sms_provider: row.sms_provider,
    sms_sender_id: row.sms_sender_id,
    sms_api_key_set: row.sms_api_key_enc != null,
    sms_api_secret_set: row.sms_api_secret_enc != null,
    aigateway_api_key_set: row.aigateway_api_key_enc != null,
    timezone: row.timezone,
    currency: row.currency,
    credit_terms_days: row.credit_terms_days,
    expiry_alert_days: row.expiry_alert_days,
    shift_shortfall_alert: fromCents(Number(row.shift_shortfall_alert)),
    payment_match_window_min: row.payment_match_window_min,
    scale_barcodes: scaleBarcodesOf(row),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The organisation's scale label layouts: as saved, or the default (off) when never set or unreadable. */
export function scaleBarcodesOf(row: Pick<OrganisationRow, 'scale_barcodes'>): ScaleBarcodeConfig {
  if (!row.scale_barcodes) return DEFAULT_SCALE_BARCODES;
  try {
    const parsed = ScaleBarcodeConfig.safeParse(JSON.parse(row.scale_barcodes));
    return parsed.success ? parsed.data : DEFAULT_SCALE_BARCODES;
  } catch {
    return DEFAULT_SCALE_BARCODES;
  }
}

export function findOrganisation(db: Kysely<Database>, id: string) {
  return db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organisation's IANA time zone, which decides "today" and day buckets. */
export async function orgTimezone(db: Kysely<Database>, orgId: string): Promise<string> {
  const row = await db.selectFrom('organisations').select('timezone').where('id', '=', orgId).executeTakeFirst();
  return row?.timezone ?? DEFAULT_TIMEZONE;
}
