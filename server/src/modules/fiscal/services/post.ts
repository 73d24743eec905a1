/**
 * One post to TRA with the device's token: the token is renewed once after a 401, an answer with
 * ACKCODE 0 is the only success, and what failed is said without the request (it carries the token).
 */
import type { FiscalDeviceRow } from '../../../db/tables/fiscal.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { TraRefused, type TraGateway, TraUnauthorized, TraUnreachable } from '../tra/tra-gateway.js';
import { dropToken, tokenFor } from './device-session.js';

/** 30 s, 1, 2, 4 min, then every 5 min: an hour-long outage is caught up within minutes of TRA's return. */
export const fiscalRetryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 5 * 60_000);

export const isTraTrouble = (err: unknown): err is Error => err instanceof TraUnreachable || err instanceof TraUnauthorized || err instanceof TraRefused;

export type SendOutcome = { ok: true } | { ok: false; error: string };

/** Post one signed body with the device's token, renewing the token once after a 401. Throws what the gateway throws (no answer, token refused). */
export async function postWithToken(ctx: ServiceContext, gateway: TraGateway, device: FiscalDeviceRow, post: (token: string) => Promise<{ ackCode: string; ackMessage: string }>): Promise<SendOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      const ack = await post(await tokenFor(ctx, gateway, device));
      return ack.ackCode === '0' ? { ok: true } : { ok: false, error: `TRA refused it (ACKCODE ${ack.ackCode}): ${ack.ackMessage}`.slice(0, 500) };
    } catch (err) {
      if (!(err instanceof TraUnauthorized) || attempt > 0) throw err;
      await dropToken(ctx, device);
    }
  }
}

