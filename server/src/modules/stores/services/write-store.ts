/** Opening, editing, marking and deactivating stores. Every write is audited and noted for the change log in its transaction. */
import type { CreateStoreInput, Store, StoreStatus, UpdateStoreInput } from '@duka/shared';
import { uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { DuplicateError, InvalidStateError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';
import { findStoreByCode, insertStore, type StoreChanges, toStore, updateStoreRow } from '../../tenancy/tenancy.exports.js';
import { lockActiveStoreIds } from '../stores.queries.js';
import type { StoreRow } from '../../../db/tables/stores.table.js';
import { requireOrgStore } from './read-store.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';

const codeTaken = (code: string) => new DuplicateError('code', `another store already uses code ${code}`);

/** The input as column values; the phone is normalised to E.164 (400 naming `phone` when it is not a number). */
function columnsOf(input: UpdateStoreInput): StoreChanges {
  const { phone, vat_enabled, is_active, ...plain } = input;
  return {
    ...plain,
    ...(phone !== undefined ? { phone: phone === null ? null : normalisePhone(phone) } : {}),
    ...(vat_enabled !== undefined ? { vat_enabled: vat_enabled ? 1 : 0 } : {}),
    ...(is_active !== undefined ? { is_active: is_active ? 1 : 0 } : {}),
  };
}

/** Only the columns whose value differs from the row, so a PATCH that changes nothing writes nothing. */
function diff(row: StoreRow, changes: StoreChanges): StoreChanges {
  return Object.fromEntries(Object.entries(changes).filter(([k, v]) => v !== undefined && row[k as keyof StoreRow] !== v));
}

async function assertCodeFree(ctx: AuthedContext, orgId: string, code: string) {
  if (await findStoreByCode(ctx.db, orgId, code)) throw codeTaken(code);
}

export async function createStore(ctx: AuthedContext, input: CreateStoreInput): Promise<Store> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const { code, ...rest } = columnsOf(input);
  if (code) await assertCodeFree(ctx, orgId, code);
  await checkPlanAllows(ctx, orgId, 'stores');
  // A generated code can be taken by a concurrent create between choosing and inserting it: choose again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(ctx, async (tx) => {
        const row = await insertStore(tx, orgId, { ...rest, name: input.name, ...(code ? { code } : {}) });
        await recordAudit(tx, {
          action: 'store.create',
          description: `Opened store ${row.name} (${row.code})`,
          entity: 'store',
          entityId: row.id,
          storeId: row.id,
        });
        return toStore(row);
      });
    } catch (err) {
      if (uniqueViolationField(err) !== 'code') throw err;
      if (code) throw codeTaken(code);
      if (attempt >= 3) throw new DuplicateError('code', 'could not find a free store code; send one');
    }
  }
}

function auditOf(store: StoreRow, changes: StoreChanges) {
  if (changes.is_active === 0) return { action: 'store.deactivate', description: `Deactivated store ${store.name}` };
  const fields = Object.keys(changes).filter((k) => k !== 'is_active');
  if (changes.is_active === 1 && !fields.length) return { action: 'store.reactivate', description: `Reactivated store ${store.name}` };
  if (fields.length === 1 && changes.status) return { action: 'store.status', description: `Marked store ${store.name} ${changes.status}` };
  return { action: 'store.update', description: `Updated store ${store.name}: ${Object.keys(changes).join(', ')}` };
}

async function writeStore(ctx: AuthedContext, store: StoreRow, changes: StoreChanges): Promise<Store> {
  if (!Object.keys(changes).length) return toStore(store);
  if (changes.code) await assertCodeFree(ctx, store.org_id, changes.code);
  // Reopening a store grows the organisation as opening one does.
  if (changes.is_active === 1 && store.is_active !== 1) await checkPlanAllows(ctx, store.org_id, 'stores');
  try {
    return await withTransaction(ctx, async (tx) => {
      if (changes.is_active === 0) {
        // Locking the active stores makes two concurrent deactivations see each other.
        const active = await lockActiveStoreIds(tx, store.org_id);
        if (!active.some((s) => s.id !== store.id))
          throw new InvalidStateError('this is the only active store; open another store before deactivating it');
      }
      const row = await updateStoreRow(tx, store.org_id, store.id, changes);
      await recordAudit(tx, { ...auditOf(store, changes), entity: 'store', entityId: store.id, storeId: store.id });
      return toStore(row);
    });
  } catch (err) {
    if (changes.code && uniqueViolationField(err) === 'code') throw codeTaken(changes.code);
    throw err;
  }
}

export async function updateStore(ctx: AuthedContext, id: string, input: UpdateStoreInput): Promise<Store> {
  requireRole(ctx, 'owner');
  const store = await requireOrgStore(ctx, id);
  return writeStore(ctx, store, diff(store, columnsOf(input)));
}

export async function setStoreStatus(ctx: AuthedContext, id: string, status: StoreStatus): Promise<Store> {
  requireRole(ctx, 'owner');
  const store = await requireOrgStore(ctx, id);
  return writeStore(ctx, store, diff(store, { status }));
}

/** Soft delete: the store keeps its history; switching to it is refused (409) until it is reactivated. */
export async function deactivateStore(ctx: AuthedContext, id: string): Promise<Store> {
  requireRole(ctx, 'owner');
  const store = await requireOrgStore(ctx, id);
  return writeStore(ctx, store, diff(store, { is_active: 0 }));
}
