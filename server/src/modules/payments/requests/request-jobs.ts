/**
 * runPaymentRequestJobs(deps, lease), every tick (background-jobs.ts, 'payment-requests'): pushes
 * whose answer is late. A provider with a status query (Selcom) is asked about a waiting request
 * when its `next_check_at` comes, backing off (request-push.ts CHECK_BACKOFF_MS), and its answer is
 * applied by the same code as a callback (request-outcome.ts), a paid answer stored as the
 * received payment a callback would have stored, so the late callback then changes nothing. A
 * request past its `expires_at` is asked one last time where the provider can be, then expires
 * and its stock comes back. AzamPay has no status query: its requests wait for the callback or
 * expire, and a customer who paid anyway shows in the inbox, where the cashier's sale with the
 * SMS reference is matched to it.
 *
 * Safe on several instances: each query is claimed first by a conditional update of `checks`, and
 * every ending is conditional on the status. Selling and sync never wait on any of it.
 */
import { fromCents, newId, toCents } from '@duka/shared';
import type { CollectionAccountRow, PaymentRequestRow } from '../../../db/tables/collection.table.js';
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import type { Lease } from '../../../lib/leases.js';
import type { PaymentResult } from '../../../mobile-money/provider.js';
import { findAccount } from '../accounts/collection-accounts.queries.js';
import { collectionDriver } from '../accounts/collection-driver.js';
import { insertReceivedPayment } from '../inbox/received-payments.queries.js';
import { claimCheck, dueForCheck, findRequest, pastTheirEnd } from './requests.queries.js';
import { applyToRequest } from './request-outcome.js';
import { canQuery, endRequest, nextCheckAt } from './request-push.js';

const BATCH = 50;
const QUERY_TIMEOUT_MS = 15_000;

export async function runPaymentRequestJobs(deps: Deps, lease?: Lease): Promise<void> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'payment-requests-job' };
  const now = ctx.clock.now();
  for (const row of await pastTheirEnd(ctx.db, now, BATCH)) await guarded(ctx, row, () => settle(ctx, row, true, lease));
  if (lease?.held === false) return;
  for (const row of await dueForCheck(ctx.db, now, BATCH)) await guarded(ctx, row, () => settle(ctx, row, false, lease));
}

async function guarded(ctx: ServiceContext, row: PaymentRequestRow, work: () => Promise<void>) {
  try {
    await work();
  } catch (err) {
    ctx.log.warn({ err, request_id: row.id }, 'payment requests: settling a push failed');
  }
}

/** Ask the provider where it can be asked (claimed first), apply a final answer; `ending`: expire it if still waiting. */
async function settle(ctx: ServiceContext, row: PaymentRequestRow, ending: boolean, lease?: Lease): Promise<void> {
  const account = await findAccount(ctx.db, row.org_id, row.account_id);
  if (account && canQuery(account.provider)) {
    const next = ending ? null : nextCheckAt(account.provider, Number(row.checks) + 1, ctx.clock.now());
    const claimed = await claimCheck(ctx.db, row, next);
    if (Number(claimed.numUpdatedRows) === 0) return;
    const result = await ask(ctx, account, row);
    if (result && result.outcome !== 'pending') await applyAnswer(ctx, account, row, result, lease);
  }
  if (!ending) return;
  const detail =
    account && canQuery(account.provider)
      ? 'no answer from the customer in time: nothing was paid'
      : 'no answer from the provider in time: if the customer paid, record the sale with the reference from their SMS';
  await withTransaction(ctx, async (tx) => {
    await lease?.fence(tx.db);
    await endRequest(tx, row, 'expired', detail);
  });
}

async function ask(ctx: ServiceContext, account: CollectionAccountRow, row: PaymentRequestRow): Promise<PaymentResult | null> {
  try {
    const driver = collectionDriver(ctx.config, ctx.keys, account);
    return await driver.queryStatus(row.reference, row.provider_ref, AbortSignal.timeout(QUERY_TIMEOUT_MS));
  } catch (err) {
    ctx.log.warn({ err, request_id: row.id }, 'payment requests: status query failed');
    return null;
  }
}

/** The provider's answer for the attempt that was asked about, as its callback would have been applied. */
async function applyAnswer(
  ctx: ServiceContext,
  account: CollectionAccountRow,
  asked: PaymentRequestRow,
  result: PaymentResult,
  lease?: Lease,
) {
  await withTransaction(ctx, async (tx) => {
    await lease?.fence(tx.db);
    const row = await findRequest(tx.db, asked.org_id, asked.id);
    if (!row) return;
    let receivedId: string | null = null;
    if (result.outcome === 'paid') {
      const amount = result.amountTzs === null ? Number(row.amount) : toCents(result.amountTzs);
      const stored = await insertReceivedPayment(tx.db, {
        org_id: row.org_id,
        id: newId(),
        account_id: account.id,
        store_id: account.store_id,
        provider: account.provider,
        provider_ref: (result.providerRef ?? asked.provider_ref ?? asked.reference).slice(0, 200),
        reference: asked.reference,
        amount,
        payer_phone: null,
        network: null,
        status: 'paid',
        received_at: tx.clock.now(),
        raw: JSON.stringify({ status_query: { ...result, amountTzs: result.amountTzs ?? fromCents(amount) } }),
        matched_sale_id: null,
        matched_at: null,
        wallet_ref: result.walletRef ?? null,
      });
      // Stored already: its callback came first and was applied then.
      if (!stored) return;
      receivedId = stored.id;
    }
    await applyToRequest(tx, row, Number(asked.attempt), result, receivedId);
  });
}
