/**
 * A sale on its way through the pipeline's stages (pipeline.ts), and the plan they end with: the
 * rows `writeSale` writes. Planned in memory against the figures of its set (`loadSaleSet`), so a
 * pushed batch of sales is worked out one after another without a round trip each.
 */
import type { LineBatch, SaleConflict } from '@duka/shared';
import type { Insertable } from 'kysely';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { CreditTabTable } from '../../../db/tables/credits.table.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import type { ProductPackRow } from '../../../db/tables/inventory.table.js';
import type { TransactionLineRow, TransactionPaymentRow, TransactionRow } from '../../../db/tables/pos.table.js';
import type { Actor, AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { localDate, localDayRange } from '../../../lib/time.js';
import type { BatchMoveOf } from '../../pharmacy/pharmacy.exports.js';
import type { SaleRequest, SaleSet } from './sale-set.js';
import { type Breach, type SalePolicy, salePolicyFor } from './sale-policy.js';

/**
 * A sale line, merged per product and pack (`mergeSaleLines`): `index` names the first line it came
 * from. `qty` is in the product's counts; a line sold by the pack has its `pack` (units in counts,
 * price in cents) and how many packs (`packs`): qty = packs × units.
 */
export interface SaleLine {
  index: number;
  product_id: string;
  qty: number;
  pack?: { row: ProductPackRow; packs: number };
  /** The part of the line sold by price labels (issue 51): its quantity and the labels' amount, cents. */
  label?: { qty: number; amount: number };
}

/** The sale being planned: what was asked, against which figures, and the conflicts met so far. */
export interface SaleDraft {
  ctx: AuthedContext;
  set: SaleSet;
  request: SaleRequest;
  /** Who asked for it (cashier, discount permission). */
  actor: Actor;
  /** The rules and lots of the store's shop type. */
  policy: SalePolicy;
  now: number;
  /** When the sale was made (the till's time for a pushed sale). */
  at: number;
  /** The day the sale was made, in the organisation's time zone: prescriptions and lots are judged by it. */
  today: string;
  conflicts: SaleConflict[];
}

export function startSale(ctx: AuthedContext, set: SaleSet, request: SaleRequest): SaleDraft {
  const now = ctx.clock.now();
  const at = request.opts.occurredAt ?? now;
  return {
    ctx,
    set,
    request,
    actor: request.actor ?? ctx.actor,
    policy: salePolicyFor(set.store.outlet_type),
    now,
    at,
    today: dayOf(at, set.org.timezone),
    conflicts: [],
  };
}

/**
 * The local day of `at`, the last one remembered with its bounds: a pushed batch's sales mostly
 * fall on one day, and the zone's formatter cost more than the rest of a sale's start (issue 53).
 */
let lastDay: { tz: string; date: string; from: number; to: number } | undefined;
function dayOf(at: number, tz: string): string {
  if (lastDay?.tz === tz && at >= lastDay.from && at < lastDay.to) return lastDay.date;
  const date = localDate(at, tz);
  lastDay = { tz, date, ...localDayRange(date, tz) };
  return date;
}

/**
 * Online a breach refuses the sale. Offline the sale has already happened, so a breach that allows
 * it is recorded as a conflict and the sale is booked (design §4), unless even that is refused.
 */
export function enforce(sale: SaleDraft, breaches: Breach[]): void {
  const refused = sale.set.online ? breaches[0] : breaches.find((b) => !b.conflict);
  if (refused)
    throw new ServiceError(refused.code, refused.message, {
      errors: [{ code: refused.code, field: refused.field, message: refused.message }],
    });
  for (const b of breaches) sale.conflicts.push(b.conflict!);
}

export interface SalePlan {
  request: SaleRequest;
  row: TransactionRow;
  lines: TransactionLineRow[];
  /** How it was paid, one row per part. */
  payments: TransactionPaymentRow[];
  /** The sale's lines merged per product, as checked. */
  merged: SaleLine[];
  lots: Array<LineBatch & { product_id: string }>;
  moves: BatchMoveOf[];
  /** New batch rows the moves need (an unallocated lot met for the first time). */
  newBatches: BatchRow[];
  stockDelta: Map<string, number>;
  stockAfter: Map<string, number>;
  tab?: Insertable<CreditTabTable>;
  newCustomer?: CustomerRow;
  conflicts: SaleConflict[];
}

/** An earlier sale with the same id: nothing is planned, the recorded sale answers. */
export interface SaleReplay {
  replayed: TransactionRow;
}
