/**
 * Reorder suggestions turned into draft purchase orders in one call (issue 52): one draft per
 * supplier of the store's suggestions (GET /inventory/reorder-suggestions, the same rule), each
 * line the suggested quantity, in whole packs of the largest pack where the product has one, at
 * the expected cost (the product's cost price: what its last delivery cost when that updated it).
 * Products with no known supplier are answered as skipped. All drafts in one transaction.
 *
 * Twice is once: drafts count as on order in the suggestions, and calls for one store queue
 * (lockDrafting), so a second call finds those products covered and drafts nothing for them.
 * docs/back-office.md "From suggestions to orders".
 */
import {
  type CreatePurchaseOrderInput,
  type DraftOrdersFromSuggestions,
  type DraftOrdersFromSuggestionsInput,
  fromCents,
  lineAmount,
  type ReorderGroup,
  toCount,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requireOrg, requirePermission } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { orgProductsById, reorderStore, reorderSuggestions } from '../../inventory/inventory.exports.js';
import { findSupplier } from '../suppliers.queries.js';
import { draftOrder } from './purchase-orders.js';
import * as q from './purchase-orders.queries.js';

type ProductCosts = Awaited<ReturnType<typeof orgProductsById>>;

/** A group's suggestions as order lines: whole packs at a pack's cost, else the product's unit at its cost price. */
function linesOf(group: ReorderGroup, products: ProductCosts): CreatePurchaseOrderInput['lines'] {
  return group.suggestions.map((s) => {
    const cost = products.get(s.product_id)?.cost_price ?? 0;
    if (!s.pack) return { product_id: s.product_id, qty: s.suggested, unit_cost: fromCents(cost) };
    // One pack's cost: the unit's cost × its contents, a measured pack rounded once as a delivery line is.
    const packCost = lineAmount(cost, toCount(s.pack.units, s.unit), s.unit);
    return { product_id: s.product_id, pack_id: s.pack.id, qty: s.pack.packs, unit_cost: fromCents(packCost) };
  });
}

const notFound = (field: string) =>
  new ServiceError('NOT_FOUND', 'supplier not found', { errors: [{ code: 'NOT_FOUND', field, message: 'supplier not found' }] });

export async function draftOrdersFromSuggestions(
  ctx: AuthedContext,
  input: DraftOrdersFromSuggestionsInput,
): Promise<DraftOrdersFromSuggestions> {
  const orgId = requireOrg(ctx);
  requirePermission(ctx, 'suppliers');
  // The store, and who may ask for it, by the suggestions' own rule.
  const { storeId } = await reorderStore(ctx, input.store_id);
  for (const [i, id] of (input.supplier_ids ?? []).entries())
    if (!(await findSupplier(ctx.db, orgId, id))) throw notFound(`supplier_ids.${i}`);
  return withTransaction(ctx, async (tx) => {
    await q.lockDrafting(tx, storeId);
    const { groups } = await reorderSuggestions(tx, { store_id: storeId, cover_days: input.cover_days });
    const wanted = (id: string) => !input.product_ids || input.product_ids.includes(id);
    const chosen = groups
      // Asked for some suppliers: only theirs (the unknown supplier's products are not among them).
      .filter((g) => !input.supplier_ids || (g.supplier_id !== null && input.supplier_ids.includes(g.supplier_id)))
      .map((g) => ({ ...g, suggestions: g.suggestions.filter((s) => wanted(s.product_id)) }))
      .filter((g) => g.suggestions.length > 0);
    const products = await orgProductsById(
      tx,
      orgId,
      chosen.flatMap((g) => g.suggestions.map((s) => s.product_id)),
    );
    const out: DraftOrdersFromSuggestions = { store_id: storeId, orders: [], skipped: [] };
    for (const group of chosen) {
      if (group.supplier_id === null) {
        for (const s of group.suggestions)
          out.skipped.push({ product_id: s.product_id, name: s.name, suggested: s.suggested, reason: 'no_supplier' });
        continue;
      }
      const supplier = { id: group.supplier_id, name: group.supplier_name! };
      const lines = linesOf(group, products);
      out.orders.push(
        await draftOrder(tx, { orgId, storeId }, supplier, { supplier_id: supplier.id, note: 'From reorder suggestions', lines }),
      );
    }
    return out;
  });
}
