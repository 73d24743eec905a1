/**
 * The owner's collection accounts: listed, created, changed, deactivated, and their callback URL
 * rotated. Credentials and the callback token are sealed on the way in and never answered (the
 * token only inside the owner's `callback_url`); every change is audited without them. At most
 * one active account per store, and one organisation-wide (store null): a second is 409 naming the
 * first, so a callback can never be routed to an account the owner thought replaced.
 */
import {
  COLLECTION_CREDENTIALS,
  type CollectionAccount,
  type CollectionCredentials,
  type CreateCollectionAccountInput,
  newId,
  type UpdateCollectionAccountInput,
} from '@duka/shared';
import type { Updateable } from 'kysely';
import type { CollectionAccountRow, CollectionAccountTable } from '../../../db/tables/collection.table.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { randomToken } from '../../../lib/crypto.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { findStore } from '../../tenancy/tenancy.exports.js';
import {
  activeAccountFor,
  findAccount,
  insertAccount,
  orgAccounts,
  toCollectionAccount,
  updateAccount,
} from './collection-accounts.queries.js';
import { callbackUrlOf, credentialsHint } from './collection-driver.js';

const view = (ctx: ServiceContext, row: CollectionAccountRow) =>
  toCollectionAccount(row, callbackUrlOf(ctx.config, row.id, ctx.keys.decrypt(row.callback_token_enc)));

function owner(ctx: AuthedContext): string {
  requireRole(ctx, 'owner');
  return requireOrg(ctx);
}

async function ownAccount(ctx: ServiceContext, orgId: string, id: string): Promise<CollectionAccountRow> {
  const row = await findAccount(ctx.db, orgId, id);
  if (!row) throw new NotFoundError('collection account');
  return row;
}

async function refuseSecondActive(ctx: ServiceContext, orgId: string, storeId: string | null, exceptId?: string) {
  const other = await activeAccountFor(ctx.db, orgId, storeId, exceptId);
  if (other)
    throw new ConflictError(
      `"${other.label}" (${other.id}) is already the active account for ${storeId ? 'this store' : 'the organisation'}; deactivate it first`,
    );
}

export async function listCollectionAccounts(ctx: AuthedContext): Promise<CollectionAccount[]> {
  const orgId = owner(ctx);
  return (await orgAccounts(ctx.db, orgId)).map((r) => view(ctx, r));
}

export async function getCollectionAccount(ctx: AuthedContext, id: string): Promise<CollectionAccount> {
  return view(ctx, await ownAccount(ctx, owner(ctx), id));
}

export async function createCollectionAccount(ctx: AuthedContext, input: CreateCollectionAccountInput): Promise<CollectionAccount> {
  const orgId = owner(ctx);
  const storeId = input.store_id ?? null;
  return withTransaction(ctx, async (tx) => {
    if (storeId && !(await findStore(tx.db, orgId, storeId))) throw new ValidationError('store_id', 'is not a store of this organisation');
    await refuseSecondActive(tx, orgId, storeId);
    const now = tx.clock.now();
    const row = await insertAccount(tx.db, {
      org_id: orgId,
      id: newId(),
      store_id: storeId,
      provider: input.provider,
      label: input.label,
      credentials_enc: tx.keys.encrypt(JSON.stringify(input.credentials)),
      credentials_hint: credentialsHint(input.provider, input.credentials),
      callback_token_enc: tx.keys.encrypt(randomToken(32)),
      test_mode: input.test_mode ? 1 : 0,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    });
    await audit(tx, row, 'create', `Added ${input.provider} collection account "${input.label}"`);
    return view(tx, row);
  });
}

export async function updateCollectionAccount(
  ctx: AuthedContext,
  id: string,
  input: UpdateCollectionAccountInput,
): Promise<CollectionAccount> {
  const orgId = owner(ctx);
  return withTransaction(ctx, async (tx) => {
    const before = await ownAccount(tx, orgId, id);
    const changes: Updateable<CollectionAccountTable> = { updated_at: tx.clock.now() };
    if (input.label !== undefined) changes.label = input.label;
    if (input.test_mode !== undefined) changes.test_mode = input.test_mode ? 1 : 0;
    if (input.active !== undefined) {
      if (input.active && before.active !== 1) await refuseSecondActive(tx, orgId, before.store_id, id);
      changes.active = input.active ? 1 : 0;
    }
    if (input.credentials !== undefined) {
      const parsed = COLLECTION_CREDENTIALS[before.provider].safeParse(input.credentials);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ValidationError(
          ['credentials', ...issue.path.map(String)].join('.'),
          `is not valid for ${before.provider}: ${issue.message}`,
        );
      }
      const credentials = parsed.data as CollectionCredentials;
      changes.credentials_enc = tx.keys.encrypt(JSON.stringify(credentials));
      changes.credentials_hint = credentialsHint(before.provider, credentials);
    }
    const row = await save(tx, orgId, id, changes);
    const what = Object.keys(input).join(', ') || 'nothing';
    await audit(tx, row, 'update', `Changed collection account "${row.label}" (${what})`);
    return view(tx, row);
  });
}

/** DELETE: the account stops taking callbacks; what it received stays. */
export async function deactivateCollectionAccount(ctx: AuthedContext, id: string): Promise<CollectionAccount> {
  const orgId = owner(ctx);
  return withTransaction(ctx, async (tx) => {
    await ownAccount(tx, orgId, id);
    const row = await save(tx, orgId, id, { active: 0, updated_at: tx.clock.now() });
    await audit(tx, row, 'deactivate', `Deactivated collection account "${row.label}"`);
    return view(tx, row);
  });
}

/** A new callback token: the old URL answers 404 from this commit on. */
export async function rotateCallback(ctx: AuthedContext, id: string): Promise<CollectionAccount> {
  const orgId = owner(ctx);
  return withTransaction(ctx, async (tx) => {
    await ownAccount(tx, orgId, id);
    const row = await save(tx, orgId, id, { callback_token_enc: tx.keys.encrypt(randomToken(32)), updated_at: tx.clock.now() });
    await audit(tx, row, 'rotate_callback', `Rotated the callback URL of collection account "${row.label}"`);
    return view(tx, row);
  });
}

const save = (ctx: ServiceContext, orgId: string, id: string, changes: Updateable<CollectionAccountTable>) =>
  updateAccount(ctx.db, orgId, id, changes);

const audit = (ctx: ServiceContext, row: CollectionAccountRow, verb: string, description: string) =>
  recordAudit(ctx, {
    action: `collection_account.${verb}`,
    description,
    entity: 'collection_account',
    entityId: row.id,
    storeId: row.store_id,
  });
