/** The organisation's customers. Phones are E.164 and unique in the organisation. */
import { toCents } from '@duka/shared';
import type { CreateCustomerInput, Customer, CustomerList, ListCustomersQuery, PageMeta, UpdateCustomerInput } from '@duka/shared';
import type { Updateable } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import { containsText, uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { DuplicateError } from '../../../lib/errors.js';
import { normalisePhone, phoneFragment } from '../../../lib/phone.js';
import {
  type NewCustomerFields,
  customersWithBalance,
  findCustomerByPhone,
  findCustomerWithBalance,
  insertCustomer,
  outstandingOf,
  toCustomer,
} from '../customers.queries.js';
import type { CustomerTable } from '../../../db/tables/customers.table.js';
import { requireCustomer } from './scope.js';
import { AUDIT_NAMING } from '../personal-data/identity.js';
import { requireOrg, requirePower } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

const duplicatePhone = () => new DuplicateError('phone', 'another customer already has this phone number');

function rethrowDuplicate(err: unknown): never {
  if (uniqueViolationField(err) === 'phone') throw duplicatePhone();
  throw err;
}

/** The stored columns for the fields present in `input`; the phone is already E.164 (or null). */
function columns(input: UpdateCustomerInput, phone: string | null | undefined): Updateable<CustomerTable> {
  const out: Updateable<CustomerTable> = {
    name: input.name,
    phone,
    email: input.email,
    segment: input.segment,
    credit_limit: input.credit_limit === undefined ? undefined : toCents(input.credit_limit),
    notes: input.notes,
    is_active: input.is_active === undefined ? undefined : input.is_active ? 1 : 0,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/**
 * A credit limit set or changed (a new customer starts at 0, no limit) or a customer deactivated
 * (the contract's removal) needs the credit permission: a cashier could otherwise lift a limit,
 * sell on credit and hide the debt.
 */
function assertMayChange(ctx: AuthedContext, before: { credit_limit: number; is_active: number }, set: Updateable<CustomerTable>) {
  if (set.credit_limit !== undefined && set.credit_limit !== Number(before.credit_limit)) requirePower(ctx, 'set_credit_limit');
  if (set.is_active === 0 && before.is_active === 1) requirePower(ctx, 'remove_customer');
}

async function assertPhoneFree(ctx: AuthedContext, orgId: string, phone: string | null | undefined, selfId?: string) {
  if (!phone) return;
  const other = await findCustomerByPhone(ctx.db, orgId, phone);
  if (other && other.id !== selfId) throw duplicatePhone();
}

export async function listCustomers(ctx: AuthedContext, q: ListCustomersQuery): Promise<{ data: CustomerList; meta: PageMeta }> {
  const orgId = requireOrg(ctx);
  const search = q.search?.trim();
  const phone = search ? phoneFragment(search) : null;
  const base = customersWithBalance(ctx.db, orgId)
    .$if(!!search, (qb) =>
      qb.where((eb) =>
        eb.or([
          containsText(ctx.dialect, 'customers.name', search!),
          containsText(ctx.dialect, 'customers.email', search!),
          containsText(ctx.dialect, 'customers.phone', phone ?? search!),
        ]),
      ),
    )
    .$if(!!q.segment, (qb) => qb.where('customers.segment', '=', q.segment!))
    .$if(q.has_credit !== undefined, (qb) => qb.where((eb) => eb(outstandingOf(eb), q.has_credit ? '>' : '<=', 0)));
  const { rows, total, meta } = await countedPage(base, base.orderBy('customers.name').orderBy('customers.id'), q);
  return { data: { items: rows.map(toCustomer), total }, meta };
}

export async function getCustomer(ctx: AuthedContext, id: string): Promise<Customer> {
  return toCustomer(await requireCustomer(ctx, id));
}

/** `id`: the till's own id for a customer it created offline. */
export async function createCustomer(ctx: AuthedContext, input: CreateCustomerInput, id?: string): Promise<Customer> {
  const orgId = requireOrg(ctx);
  assertMayChange(ctx, { credit_limit: 0, is_active: 1 }, columns(input, undefined));
  const phone = input.phone ? normalisePhone(input.phone) : null;
  await assertPhoneFree(ctx, orgId, phone);
  try {
    return await withTransaction(ctx, async (tx) => {
      const row = await insertCustomer(tx, orgId, { ...(columns(input, phone) as NewCustomerFields), name: input.name, id });
      await recordAudit(tx, {
        action: 'customer.create',
        description: `${AUDIT_NAMING['customer.create']}${row.name}`,
        entity: 'customer',
        entityId: row.id,
      });
      return toCustomer({ ...row, outstanding: 0 });
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

/** Any create field; `null` clears phone, email or notes. A PATCH that changes nothing writes nothing. */
export async function updateCustomer(ctx: AuthedContext, id: string, input: UpdateCustomerInput): Promise<Customer> {
  const orgId = requireOrg(ctx);
  const before = await requireCustomer(ctx, id);
  const phone = input.phone === undefined ? undefined : input.phone === null ? null : normalisePhone(input.phone);
  await assertPhoneFree(ctx, orgId, phone, id);
  const set = columns(input, phone);
  const changed = Object.entries(set).some(([k, v]) => before[k as keyof typeof before] !== v);
  if (!changed) return toCustomer(before);
  assertMayChange(ctx, before, set);
  try {
    return await withTransaction(ctx, async (tx) => {
      await tx.db
        .updateTable('customers')
        .set({ ...set, updated_at: tx.clock.now() })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      noteChange(tx, orgId, { entity: 'customer', id });
      await recordAudit(tx, {
        action: 'customer.update',
        description: `${AUDIT_NAMING['customer.update']}${set.name ?? before.name}`,
        entity: 'customer',
        entityId: id,
      });
      return toCustomer((await findCustomerWithBalance(tx.db, orgId, id))!);
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}
