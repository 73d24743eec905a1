/**
 * Billing: plans, each organisation's subscription (one row per organisation), invoices, payments
 * and the subscription history (every status change, invoice and payment, for the platform
 * admin). Money in integer cents; times in epoch ms; limits null = unlimited; features a JSON
 * array of names. Seeds `free` (where every organisation starts) and an example paid ladder, and
 * puts every existing organisation on `free`. Frozen.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { flag, index, sql, t, uniqueIndex } from './_helpers.js';

const SEED = [
  // A one-shop kiosk: one store, the owner and two helpers, a few hundred products; AI credits as
  // AI_CREDITS_MONTHLY's default was before plans existed.
  {
    code: 'free',
    name_en: 'Free',
    name_sw: 'Bure',
    monthly: 0,
    yearly: 0,
    stores: 1,
    staff: 2,
    products: 500,
    ai: 100,
    sms: 50,
    features: [] as string[],
  },
  {
    code: 'biashara',
    name_en: 'Business',
    name_sw: 'Biashara',
    monthly: 15_000,
    yearly: 150_000,
    stores: 3,
    staff: 10,
    products: 5_000,
    ai: 500,
    sms: 500,
    features: ['scheduled_email_reports', 'customer_sms'],
  },
  {
    code: 'pro',
    name_en: 'Pro',
    name_sw: 'Pro',
    monthly: 40_000,
    yearly: 400_000,
    stores: 10,
    staff: 50,
    products: null,
    ai: 2_000,
    sms: 2_000,
    features: ['scheduled_email_reports', 'customer_sms', 'pharmacy_registers', 'ai_gateway'],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('code', t.text, (c) => c.notNull())
    .addColumn('name_en', t.text, (c) => c.notNull())
    .addColumn('name_sw', t.text, (c) => c.notNull())
    .addColumn('price_monthly', t.big, (c) => c.notNull())
    .addColumn('price_yearly', t.big, (c) => c.notNull())
    .addColumn('max_stores', t.int)
    .addColumn('max_staff', t.int)
    .addColumn('max_products', t.int)
    .addColumn('ai_credits_monthly', t.int)
    .addColumn('sms_monthly', t.int)
    .addColumn('features', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'plans', ['code']);

  await db.schema
    .createTable('subscriptions')
    .addColumn('org_id', t.id, (c) => c.primaryKey().references('organisations.id'))
    .addColumn('plan_id', t.id, (c) => c.notNull().references('plans.id'))
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('billing_cycle', t.text)
    .addColumn('price', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('period_start', t.big)
    .addColumn('period_end', t.big)
    .addColumn('cancel_at_period_end', t.flag, flag(0))
    .addColumn('next_plan_id', t.id)
    .addColumn('next_billing_cycle', t.text)
    .addColumn('past_due_since', t.big)
    .addColumn('last_reminder_at', t.big)
    .addColumn('payer_phone', t.text)
    .addColumn('payer_network', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'subscriptions', ['status', 'period_end']);

  await db.schema
    .createTable('invoices')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('number', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('plan_id', t.id, (c) => c.notNull().references('plans.id'))
    .addColumn('billing_cycle', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('plan_price', t.big, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('period_start', t.big)
    .addColumn('period_end', t.big)
    .addColumn('paid_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'invoices', ['number']);
  await index(db, 'invoices', ['org_id', 'created_at']);
  // One renewal per period: a second job instance's insert fails instead of billing twice.
  await db.schema
    .createIndex('uq__invoices__renewal')
    .on('invoices')
    .columns(['org_id', 'kind', 'period_start'])
    .unique()
    .where(sql.ref('kind'), '=', 'renewal')
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('invoice_id', t.id, (c) => c.notNull().references('invoices.id'))
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('provider', t.text, (c) => c.notNull())
    .addColumn('provider_ref', t.text)
    .addColumn('phone', t.text, (c) => c.notNull())
    .addColumn('network', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('reported_amount', t.big)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('detail', t.text)
    .addColumn('checked_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'payments', ['invoice_id']);
  await index(db, 'payments', ['status', 'created_at']);

  await db.schema
    .createTable('subscription_events')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('from_plan', t.text)
    .addColumn('to_plan', t.text)
    .addColumn('from_status', t.text)
    .addColumn('to_status', t.text)
    .addColumn('invoice_id', t.id)
    .addColumn('payment_id', t.id)
    .addColumn('detail', t.text, (c) => c.notNull())
    .addColumn('user_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'subscription_events', ['org_id', 'created_at']);
  await index(db, 'subscription_events', ['created_at']);

  const now = Date.now();
  const ids = new Map<string, string>();
  for (const p of SEED) {
    const id = randomUUID();
    ids.set(p.code, id);
    await db
      .insertInto('plans')
      .values({
        id,
        code: p.code,
        name_en: p.name_en,
        name_sw: p.name_sw,
        price_monthly: p.monthly * 100,
        price_yearly: p.yearly * 100,
        max_stores: p.stores,
        max_staff: p.staff,
        max_products: p.products,
        ai_credits_monthly: p.ai,
        sms_monthly: p.sms,
        features: JSON.stringify(p.features),
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  await sql`insert into subscriptions (org_id, plan_id, status, price, cancel_at_period_end, created_at, updated_at)
    select id, ${ids.get('free')!}, 'active', 0, 0, created_at, ${now} from organisations`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['subscription_events', 'payments', 'invoices', 'subscriptions', 'plans']) await db.schema.dropTable(table).execute();
}
