/**
 * The reorder-advice port: what a low-stock notification needs of the reorder rule. The rule (and
 * the sales, deliveries and orders it reads) is inventory's, which ranks above notifications and
 * so cannot be imported here; notifications declares what it needs and inventory implements it.
 *
 * - Declared here, and used only by low-stock.ts, through `reorderAdvice(ctx)` below.
 * - Implemented by inventory: `reorderAdvice` in modules/inventory/reorder/reorder-suggestions.ts
 *   (offered by inventory.exports.ts), the suggestions' own path, typed against this interface.
 * - Wired once, in app.ts's `createDeps` (`reorderAdvice`), into every service context.
 *
 * docs/architecture.md ("Ports") lists every port of the server this way.
 */
import type { Unit } from '@duka/shared';
import type { ServiceContext } from '../../../lib/context.js';

/** What to order of one product now, as GET /inventory/reorder-suggestions says it (default cover). */
export interface ProductAdvice {
  /** In the product's unit. */
  suggested: number;
  unit: Unit;
  /** The suggestion in whole packs of the product's largest pack; null: it has none. */
  pack: { name: string; packs: number } | null;
  /** Who brought it last; null: no delivery says. */
  supplierName: string | null;
}

/** The advice for each of `productIds` the rule suggests ordering; a product it does not is absent. */
export type ReorderAdvice = (
  ctx: ServiceContext,
  key: { orgId: string; storeId: string },
  productIds: string[],
) => Promise<Map<string, ProductAdvice>>;

/** The context's reorder-advice port: inventory's `reorderAdvice`, wired by app.ts. */
export const reorderAdvice = (ctx: ServiceContext): ReorderAdvice => ctx.reorderAdvice;
