/**
 * The medicine fields of a product, checked as a whole: create and update both pass the product as
 * it will be after the write, so a PATCH that names one field is judged with the others as stored.
 * Server only: tills do not create or edit products.
 */
import type { CreateProductInput, UpdateProductInput } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { BusinessRuleError, ValidationError } from '../../../lib/errors.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { lotHoldingUnits, storeHoldingStock } from '../inventory.queries.js';

type Stored = Pick<ProductRow, 'generic_name' | 'schedule' | 'track_batches' | 'is_service'>;

/**
 * `track_batches` to store, or undefined to leave it: a product that becomes a medicine (gets a
 * schedule it did not have) tracks batches unless the input says otherwise, as the issue has it
 * ("true for every medicine") while still letting an owner opt a medicine out on purpose.
 */
export function trackBatchesOf(before: Stored | null, input: UpdateProductInput): boolean | undefined {
  if (input.track_batches !== undefined) return input.track_batches;
  if (input.schedule && !before?.schedule) return true;
  return undefined;
}

/** 400 naming the field when the product after the write would not be a coherent medicine. */
export function assertMedicine(before: Stored | null, input: CreateProductInput | UpdateProductInput, trackBatches: boolean) {
  const pick = <K extends 'generic_name' | 'schedule'>(k: K) => (input[k] !== undefined ? input[k] : (before?.[k] ?? null));
  const isService = input.is_service ?? before?.is_service === 1;
  const schedule = pick('schedule');
  if (schedule && isService) throw new ValidationError('schedule', 'must be null for a service: a service is not a medicine');
  // The generic name is what the ADDO list, the registers and an inspector go by.
  if (schedule && !pick('generic_name'))
    throw new ValidationError('generic_name', 'is required for a medicine (a product with a schedule)');
  if (trackBatches && isService) throw new ValidationError('track_batches', 'must be false for a service: a service has no stock');
}

/**
 * Stock of a batch-tracked product is the sum of its batches, so it cannot arrive without a lot
 * and expiry (through `stock` on the product), and tracking cannot be switched while any store
 * holds some: the level and the batches would disagree from that moment. Nor can it be switched
 * off while any lot holds units outside stock (quarantined, expired, recalled).
 */
export async function assertStockAllowsTracking(
  db: Kysely<Database>,
  orgId: string,
  productId: string,
  change: { trackedBefore: boolean; trackedAfter: boolean },
): Promise<void> {
  if (change.trackedBefore === change.trackedAfter) return;
  if (await storeHoldingStock(db, orgId, productId))
    throw new BusinessRuleError(
      'track_batches cannot change while a store holds stock of this product; bring its stock to 0 first',
      'BUSINESS_RULE',
      'track_batches',
    );
  if (change.trackedAfter) return;
  // Units in quarantine, expired or recalled are not stock but are still lots an inspector asks about.
  const lot = await lotHoldingUnits(db, orgId, productId);
  if (lot) {
    const message = `track_batches cannot be switched off while lot ${lot.lot_number} holds units (${lot.status}); release or dispose of them first`;
    throw new BusinessRuleError(message, 'BUSINESS_RULE', 'track_batches');
  }
}

export const STOCK_NEEDS_BATCH = 'must come from a delivery with lot and expiry for a batch-tracked product';
