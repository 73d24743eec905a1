/**
 * One post to TRA with the device's token: the token is renewed once after a 401, an answer with
 * ACKCODE 0 is the only success, and what failed is said without the request (it carries the token).
 */
import type { FiscalDeviceRow } from '../../../db/tables/fiscal.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { type Acknowledgement, TraRefused, type TraGateway, TraUnauthorized, TraUnreachable } from '../tra/tra-gateway.js';
import { CredentialsUnreadable, dropToken, tokenFor } from './device-session.js';

/** 30 s, 1, 2, 4 min, then every 5 min: an hour-long outage is caught up within minutes of TRA's return. */
export const fiscalRetryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 5 * 60_000);

/** What leaves a receipt or Z report waiting, its reason recorded: TRA's trouble, or credentials that no longer unseal. */
export const isTraTrouble = (err: unknown): err is Error =>
  err instanceof TraUnreachable || err instanceof TraUnauthorized || err instanceof TraRefused || err instanceof CredentialsUnreadable;

export type SendOutcome = { ok: true } | { ok: false; error: string };

/** A receipt or a Z report waiting for TRA: both tables keep the same sending state. */
export interface Queued {
  table: 'fiscal_receipts' | 'fiscal_z_reports';
  id: string;
  attempts: number;
  /** What the log says it is (store, counter or day). */
  label: Record<string, unknown>;
}

/**
 * Send one queued item; true when TRA acknowledged it (`issued` records that). Otherwise it stays
 * `pending` (no answer) or becomes `failed` (TRA refused it) and waits its backoff.
 */
export async function sendQueued(
  ctx: ServiceContext,
  gateway: TraGateway,
  device: FiscalDeviceRow,
  item: Queued,
  post: (token: string) => Promise<Acknowledgement>,
  issued: (attempts: number) => Promise<void>,
): Promise<boolean> {
  const attempts = item.attempts + 1;
  let status: 'pending' | 'failed' = 'pending';
  let error: string;
  try {
    const outcome = await postWithToken(ctx, gateway, device, post);
    if (outcome.ok) {
      await issued(attempts);
      return true;
    }
    status = 'failed';
    error = outcome.error;
  } catch (err) {
    if (!isTraTrouble(err)) throw err;
    error = err.message;
  }
  ctx.log.warn({ ...item.label, attempts, reason: error }, 'fiscal: not acknowledged by TRA; retrying later');
  // Both tables have these columns; the cast names one for Kysely's types.
  await ctx.db
    .updateTable(item.table as 'fiscal_receipts')
    .set({ status, attempts, last_error: error, next_attempt_at: ctx.clock.now() + fiscalRetryDelayMs(attempts) })
    .where('org_id', '=', device.org_id)
    .where('id', '=', item.id)
    .execute();
  return false;
}

/** Post one signed body with the device's token, renewing the token once after a 401. Throws what the gateway throws (no answer, token refused). */
export async function postWithToken(
  ctx: ServiceContext,
  gateway: TraGateway,
  device: FiscalDeviceRow,
  post: (token: string) => Promise<Acknowledgement>,
): Promise<SendOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      const ack = await post(await tokenFor(ctx, gateway, device));
      return ack.ackCode === '0'
        ? { ok: true }
        : { ok: false, error: `TRA refused it (ACKCODE ${ack.ackCode}): ${ack.ackMessage}`.slice(0, 500) };
    } catch (err) {
      if (!(err instanceof TraUnauthorized) || attempt > 0) throw err;
      await dropToken(ctx, device);
    }
  }
}
