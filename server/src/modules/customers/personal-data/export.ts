/**
 * Everything the shop holds about one customer, for them to take away (their right of access
 * under the Personal Data Protection Act 2022): the customer record, their sales with lines,
 * credit, contacts, messages sent to them, mobile money and the sales' fiscal and prescription
 * records. Owner only; the export is audited (who exported whom, never what).
 */
import { type CustomerPersonalData, fromCents, fromCount } from '@duka/shared';
import { stringify } from 'csv-stringify/sync';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { toCustomer } from '../customers.queries.js';
import { requireCustomer } from '../services/scope.js';
import { identityOf } from './identity.js';
import { customerRows, messagesTo, ofSales, personSales, receivedFrom, requestedOf, saleLines } from './personal-data.queries.js';

const money = (cents: number | string) => fromCents(Number(cents));
const time = (ms: number | string) => iso(Number(ms));

async function sales(ctx: AuthedContext, orgId: string, customerId: string, phones: string[]) {
  const rows = await personSales(ctx.db, orgId, customerId, phones).selectAll().orderBy('created_at').orderBy('id').execute();
  const lines = await saleLines(
    ctx.db,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    receipt_number: r.receipt_number,
    store_id: r.store_id,
    created_at: time(r.created_at),
    status: r.status,
    payment_method: r.payment_method,
    payment_reference: r.payment_reference,
    payment_phone: r.payment_phone,
    customer_name: r.customer_name,
    customer_phone: r.customer_phone,
    customer_tin: r.customer_tin,
    subtotal: money(r.subtotal),
    discount: money(r.discount),
    tax: money(r.tax),
    total: money(r.total),
    notes: r.notes,
    lines: lines
      .filter((l) => l.transaction_id === r.id)
      .map((l) => ({
        product_name: l.product_name,
        qty: fromCount(Number(l.qty), l.unit),
        unit: l.unit,
        unit_price: money(l.unit_price),
        line_total: money(l.line_total),
        tax: money(l.tax),
      })),
  }));
}

async function mobileMoney(
  ctx: AuthedContext,
  orgId: string,
  saleIds: string[],
  phones: string[],
): Promise<CustomerPersonalData['mobile_money']> {
  const [received, requested] = await Promise.all([
    receivedFrom(ctx.db, orgId, saleIds, phones).selectAll().orderBy('received_at').execute(),
    requestedOf(ctx.db, orgId, saleIds, phones).selectAll().orderBy('created_at').execute(),
  ]);
  return [
    ...received.map((r) => ({
      id: r.id,
      kind: 'received' as const,
      sale_id: r.matched_sale_id,
      amount: money(r.amount),
      phone: r.payer_phone,
      reference: r.wallet_ref ?? r.reference,
      status: r.status,
      created_at: time(r.received_at),
    })),
    ...requested.map((r) => ({
      id: r.id,
      kind: 'requested' as const,
      sale_id: r.sale_id,
      amount: money(r.amount),
      phone: r.phone,
      reference: r.reference,
      status: r.status,
      created_at: time(r.created_at),
    })),
  ];
}

/** The document in the JSON form; `csv` lays the same out a field a row. */
export async function customerPersonalData(ctx: AuthedContext, customerId: string): Promise<CustomerPersonalData> {
  const orgId = requireOrg(ctx);
  const customer = await requireCustomer(ctx, customerId);
  const phones = identityOf({ phones: [customer.phone] }).phones;
  const sold = await sales(ctx, orgId, customerId, phones);
  const saleIds = sold.map((s) => s.id);
  const who = identityOf({
    phones: [customer.phone, ...sold.flatMap((s) => [s.customer_phone, s.payment_phone])],
    emails: [customer.email],
  });
  const [tabs, payments, contacts, notes, messages, mobile, fiscal, prescriptions] = await Promise.all([
    customerRows(ctx.db, 'credit_tabs', orgId, customerId),
    customerRows(ctx.db, 'credit_payments', orgId, customerId),
    customerRows(ctx.db, 'credit_messages', orgId, customerId),
    customerRows(ctx.db, 'credit_notes', orgId, customerId),
    messagesTo(ctx.db, orgId, [...who.phones, ...who.emails])
      .selectAll()
      .orderBy('created_at')
      .execute(),
    mobileMoney(ctx, orgId, saleIds, who.phones),
    ofSales(ctx.db, 'fiscal_receipts', orgId, saleIds),
    ofSales(ctx.db, 'prescriptions', orgId, saleIds),
  ]);
  const data: CustomerPersonalData = {
    generated_at: iso(ctx.clock.now()),
    customer: toCustomer(customer),
    sales: sold,
    credit_tabs: tabs.map((t) => ({
      id: t.id,
      transaction_id: t.transaction_id,
      amount: money(t.amount),
      paid_amount: money(t.paid_amount),
      written_off_amount: money(t.written_off_amount),
      status: t.status,
      due_date: t.due_date,
      write_off_reason: t.write_off_reason,
      created_at: time(t.created_at),
    })),
    credit_payments: payments.map((p) => ({
      id: p.id,
      amount: money(p.amount),
      method: p.method,
      reference: p.reference,
      note: p.note,
      created_at: time(p.created_at),
    })),
    credit_messages: contacts.map((m) => ({
      id: m.id,
      kind: m.kind,
      body: m.body,
      created_at: time(m.created_at),
    })),
    credit_notes: notes.map((n) => ({ id: n.id, body: n.body, created_at: time(n.created_at) })),
    messages: messages.map((m) => ({
      id: m.id,
      channel: m.channel,
      recipient: m.recipient,
      subject: m.subject,
      body: m.sensitive ? '(a code, not kept)' : m.body,
      status: m.status,
      created_at: time(m.created_at),
    })),
    mobile_money: mobile,
    fiscal_receipts: fiscal.map((f) => ({
      transaction_id: f.transaction_id,
      rctvnum: f.rctvnum,
      verify_url: f.verify_url,
      issued_at: time(f.issued_at),
      status: f.status,
    })),
    prescriptions: prescriptions.map((p) => ({
      id: p.id,
      transaction_id: p.transaction_id,
      receipt_number: p.receipt_number,
      dispensed_at: time(p.dispensed_at),
      patient_name: p.patient_name,
      patient_age: p.patient_age == null ? null : Number(p.patient_age),
      patient_date_of_birth: p.patient_date_of_birth,
      patient_sex: p.patient_sex,
    })),
  };
  await withTransaction(ctx, (tx) =>
    recordAudit(tx, {
      action: 'customer.personal_data_export',
      description: 'Exported the personal data of a customer',
      entity: 'customer',
      entityId: customerId,
    }),
  );
  return data;
}

/** One row per field: `section, record_id, field, value` (a sale's lines as section `sale_line`, record `<sale id>/<n>`). */
export function personalDataCsv(data: CustomerPersonalData): string {
  const rows: unknown[][] = [];
  const put = (section: string, id: string, record: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(record)) rows.push([section, id, field, value == null ? '' : String(value)]);
  };
  put('customer', data.customer.id, data.customer);
  for (const { lines, ...sale } of data.sales) {
    put('sale', sale.id, sale);
    lines.forEach((line, i) => put('sale_line', `${sale.id}/${i + 1}`, line));
  }
  const sections = [
    'credit_tabs',
    'credit_payments',
    'credit_messages',
    'credit_notes',
    'messages',
    'mobile_money',
    'prescriptions',
  ] as const;
  for (const section of sections) for (const record of data[section]) put(section.replace(/s$/, ''), record.id, record);
  for (const receipt of data.fiscal_receipts) put('fiscal_receipt', receipt.transaction_id, receipt);
  return stringify(rows, { header: true, columns: ['section', 'record_id', 'field', 'value'], record_delimiter: 'windows' });
}
