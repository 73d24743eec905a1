/**
 * What talking to TRA needs for a store's device: the endpoint, the signing key opened from the
 * sealed .pfx (kept in memory, reopened only when the certificate changes, because PKCS#12 key
 * derivation is slow), and a token, cached sealed in the device row until a minute before it
 * expires and dropped after a 401 (TRA rules 17-18).
 */
import type { FiscalDeviceRow } from '../../../db/tables/fiscal.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { apiBase } from '../fiscal.queries.js';
import { openCertificate, type SigningKey } from '../tra/certificate.js';
import type { TraEndpoint, TraGateway } from '../tra/tra-gateway.js';

const TOKEN_MARGIN_MS = 60_000;

/**
 * The TRA username and password kept from the registration cannot be unsealed: the server key
 * (JWT_SECRET) changed. Nothing can be sent until it is restored; the queue says so.
 */
export class CredentialsUnreadable extends Error {
  constructor() {
    super(
      'the TRA username and password kept from the registration cannot be unsealed (JWT_SECRET changed?): restore the previous JWT_SECRET',
    );
  }
}

function unseal(ctx: ServiceContext, sealed: string): string | null {
  try {
    return ctx.keys.decrypt(sealed);
  } catch {
    return null;
  }
}

/**
 * Tokens as unsealed, by their sealed text: every receipt sent asks for the device's token, and
 * unsealing it each time was about a tenth of the sender's own CPU (issue 53). A new token is a new sealed
 * text, so an entry never goes stale; kept per server key (a server started on another JWT_SECRET
 * unseals afresh), emptied when it grows past a fleet's stores.
 */
const opened = new WeakMap<ServiceContext['keys'], Map<string, string>>();
function unsealToken(ctx: ServiceContext, sealed: string): string | null {
  let tokens = opened.get(ctx.keys);
  if (!tokens) opened.set(ctx.keys, (tokens = new Map()));
  const known = tokens.get(sealed);
  if (known !== undefined) return known;
  const token = unseal(ctx, sealed);
  if (token === null) return null;
  if (tokens.size >= 1_000) tokens.clear();
  tokens.set(sealed, token);
  return token;
}
const keys = new Map<string, { sealed: string; key: SigningKey }>();

export const endpointOf = (ctx: ServiceContext, device: FiscalDeviceRow): TraEndpoint => ({
  baseUrl: apiBase(ctx.config, device.environment),
  certSerial: device.cert_serial,
});

export async function signingKey(ctx: ServiceContext, device: FiscalDeviceRow): Promise<SigningKey> {
  const sealed = device.certificate_enc!;
  const cached = keys.get(device.store_id);
  if (cached?.sealed === sealed) return cached.key;
  const key = await openCertificate(ctx.keys.decrypt(sealed), ctx.keys.decrypt(device.certificate_password_enc!));
  keys.set(device.store_id, { sealed, key });
  return key;
}

export async function tokenFor(ctx: ServiceContext, gateway: TraGateway, device: FiscalDeviceRow): Promise<string> {
  const now = ctx.clock.now();
  // A cached token that no longer unseals is simply fetched again.
  const cached =
    device.token_enc && device.token_expires_at && Number(device.token_expires_at) - TOKEN_MARGIN_MS > now
      ? unsealToken(ctx, device.token_enc)
      : null;
  if (cached) return cached;
  const credentials = device.credentials_enc ? unseal(ctx, device.credentials_enc) : null;
  if (!credentials) throw new CredentialsUnreadable();
  const { username, password } = JSON.parse(credentials) as { username: string; password: string };
  const token = await gateway.token(endpointOf(ctx, device), username, password);
  const expires = now + token.expiresInSeconds * 1000;
  const sealed = ctx.keys.encrypt(token.accessToken);
  await ctx.db
    .updateTable('fiscal_devices')
    .set({ token_enc: sealed, token_expires_at: expires })
    .where('org_id', '=', device.org_id)
    .where('store_id', '=', device.store_id)
    .execute();
  device.token_enc = sealed;
  device.token_expires_at = expires;
  return token.accessToken;
}

export async function dropToken(ctx: ServiceContext, device: FiscalDeviceRow): Promise<void> {
  await ctx.db
    .updateTable('fiscal_devices')
    .set({ token_enc: null, token_expires_at: null })
    .where('org_id', '=', device.org_id)
    .where('store_id', '=', device.store_id)
    .execute();
  device.token_enc = null;
  device.token_expires_at = null;
}
