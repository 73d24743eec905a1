/**
 * The sync protocol the till's server speaks (issue 51). The server names its version in the
 * `duka-sync-protocol` header of every push, pull and bootstrap answer (an answer without it is
 * from a version-1 server, older than the header); the till keeps the last one it heard in the
 * replica's meta, so it knows it offline too. Version 2 added decimal quantities of measured
 * products, sale lines by the pack and from a scale label, and split tender (`payments`): the till
 * refuses to sell with them while its server speaks less (`requireServerProtocol`), and holds
 * such a queued mutation rather than push it to a server that would refuse it (`protocolNeeded`).
 */
import { PROTOCOL_VERSION } from '@duka/shared';
import type { TillConnector } from '../connector.js';
import { TillError } from '../errors.js';
import type { LocalExec } from '../local/db.js';
import { getMeta, setMeta } from '../local/meta.js';

/**
 * The version the server last answered, or null before the till heard one (a replica an older SDK
 * bootstrapped): until the next sync says, the till takes it for a version-1 server.
 */
export async function serverProtocol(db: LocalExec): Promise<number | null> {
  return (await getMeta(db, 'server_protocol')) ?? null;
}

/**
 * Keep what the server just answered. A connector that cannot tell (one without `serverProtocol`)
 * is taken to speak the till's own version: its author answers for the server behind it. `kept`:
 * what this caller already stored (a bootstrap's 21 pages need one read of the meta, not 21).
 */
export async function heardProtocol(db: LocalExec, connector: TillConnector, kept?: { heard?: number }): Promise<void> {
  const heard = connector.serverProtocol ? connector.serverProtocol() : PROTOCOL_VERSION;
  if (heard === undefined || heard === kept?.heard) return;
  if (heard !== (await getMeta(db, 'server_protocol'))) await setMeta(db, 'server_protocol', heard);
  if (kept) kept.heard = heard;
}

/**
 * The gate of a sale feature the server takes from protocol `version` on: throws `UPDATE_SERVER`
 * naming `what` while the till's server speaks less, so the till never queues a sale its server
 * would reject. Split tender calls it with `requireServerProtocol(db, 2, 'split payments')`.
 */
export async function requireServerProtocol(db: LocalExec, version: number, what: string): Promise<void> {
  const speaks = (await serverProtocol(db)) ?? 1;
  if (speaks >= version) return;
  throw new TillError(
    'UPDATE_SERVER',
    `${what} needs a server that speaks sync protocol ${version}; this till's server speaks ${speaks}: update the server, then sync`,
  );
}

/**
 * The protocol a queued mutation needs the server to speak: 2 for a sale with decimals, packs,
 * scale labels or payments, and for a refund of part of a sale (`lines`); 3 for a stock-take count;
 * 4 for an exchange.
 */
export function protocolNeeded(m: { type: string; payload: Record<string, unknown> }): number {
  if (m.type === 'sale.exchange') return 4;
  if (m.type === 'stock_take.count') return 3;
  if (m.type === 'sale.refund') return m.payload.lines === undefined ? 1 : 2;
  if (m.type !== 'sale.create') return 1;
  const lines = (m.payload.lines ?? []) as Array<{ qty?: number; pack_id?: string; scale_barcode?: string }>;
  const v2 = m.payload.payments !== undefined || lines.some((l) => !Number.isInteger(l.qty) || l.pack_id || l.scale_barcode);
  return v2 ? 2 : 1;
}
