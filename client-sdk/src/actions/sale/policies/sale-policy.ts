/**
 * What a shop type's policy answers the sale's stages (issue 50); the server's \`SalePolicy\` has
 * the same two methods. The policies are chosen by the store's outlet type (\`../policy.ts\`).
 */
import type { BatchAllocation } from '@duka/shared';
import { TillError } from '../../../errors.js';
import type { LocalExec } from '../../../local/db.js';
import type { ResolvedSale } from '../draft.js';

export interface SalePolicy {
  /** The shop type's own rules, after those every shop applies: refuses the sale (TillError) on the first breach. */
  checkRules(db: LocalExec, sale: ResolvedSale): Promise<void>;
  /** The lots each batch-tracked line takes its units from, by product (none: no lots kept). */
  takeLots(db: LocalExec, sale: ResolvedSale): Promise<Map<string, BatchAllocation[]>>;
}

/** A shared rule's first breach, thrown as the till's error (the server refuses online with the same code, field and message). */
export function refuse(breach: { code: TillError['code']; message: string; field?: string } | undefined): void {
  if (breach) throw new TillError(breach.code, breach.message, breach.field);
}
