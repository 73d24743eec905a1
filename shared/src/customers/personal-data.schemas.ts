/**
 * What the owner hands a customer who asks what the shop holds about them, and what an erasure
 * kept (Tanzania's Personal Data Protection Act 2022; docs/security.md, "Personal data").
 */
import { z } from 'zod';
import { Money, Timestamp } from '../common.js';
import { Customer } from './customers.schemas.js';
import { Unit } from '../inventory/units.js';

export const PersonalDataQuery = z.object({
  format: z
    .enum(['json', 'csv'])
    .default('json')
    .meta({ description: '`json` (the envelope) or `csv` (a download: section, record_id, field, value)' }),
});
export type PersonalDataQuery = z.infer<typeof PersonalDataQuery>;

const nullableText = z.string().nullable();

const SaleLineRecord = z.object({
  product_name: z.string(),
  qty: z.number().meta({ description: "In the product's unit (0.5 for half a kg)" }),
  unit: Unit,
  unit_price: Money,
  line_total: Money,
  tax: Money,
});
const SaleRecord = z.object({
  id: z.uuid(),
  receipt_number: z.string(),
  store_id: z.uuid(),
  created_at: Timestamp,
  status: z.string(),
  payment_method: z.string(),
  payment_reference: nullableText,
  payment_phone: nullableText,
  customer_name: nullableText,
  customer_phone: nullableText,
  customer_tin: nullableText,
  subtotal: Money,
  discount: Money,
  tax: Money,
  total: Money,
  notes: nullableText,
  lines: z.array(SaleLineRecord),
});
const CreditTabRecord = z.object({
  id: z.uuid(),
  transaction_id: z.uuid(),
  amount: Money,
  paid_amount: Money,
  written_off_amount: Money,
  status: z.string(),
  due_date: z.string(),
  write_off_reason: nullableText,
  created_at: Timestamp,
});
const CreditPaymentRecord = z.object({
  id: z.uuid(),
  amount: Money,
  method: z.string(),
  reference: nullableText,
  note: nullableText,
  created_at: Timestamp,
});
const CreditContactRecord = z.object({ id: z.uuid(), kind: z.string(), body: z.string(), created_at: Timestamp });
const MessageRecord = z.object({
  id: z.uuid(),
  channel: z.string(),
  recipient: z.string(),
  subject: nullableText,
  body: z.string(),
  status: z.string(),
  created_at: Timestamp,
});
const MobileMoneyRecord = z.object({
  id: z.string(),
  kind: z
    .enum(['received', 'requested'])
    .meta({ description: 'received: what the provider reported paid; requested: a payment asked of the phone' }),
  sale_id: z.uuid().nullable(),
  amount: Money,
  phone: nullableText,
  reference: nullableText,
  status: z.string(),
  created_at: Timestamp,
});
const FiscalReceiptRecord = z.object({
  transaction_id: z.uuid(),
  rctvnum: z.string(),
  verify_url: z.string(),
  issued_at: Timestamp,
  status: z.string(),
});
const PrescriptionRecord = z.object({
  id: z.uuid(),
  transaction_id: z.uuid(),
  receipt_number: z.string(),
  dispensed_at: Timestamp,
  patient_name: nullableText,
  patient_age: z.number().nullable(),
  patient_date_of_birth: nullableText,
  patient_sex: nullableText,
});

export const CustomerPersonalData = z
  .object({
    generated_at: Timestamp,
    customer: Customer,
    sales: z.array(SaleRecord).meta({ description: "The customer's sales, and sales that carry their phone, oldest first" }),
    credit_tabs: z.array(CreditTabRecord),
    credit_payments: z.array(CreditPaymentRecord),
    credit_messages: z.array(CreditContactRecord).meta({ description: 'Reminders sent and contacts logged' }),
    credit_notes: z.array(CreditContactRecord.omit({ kind: true })),
    messages: z.array(MessageRecord).meta({ description: 'SMS and email sent to their phone or email (receipts, reminders)' }),
    mobile_money: z.array(MobileMoneyRecord),
    fiscal_receipts: z.array(FiscalReceiptRecord).meta({ description: 'Receipts of their sales as sent to TRA' }),
    prescriptions: z
      .array(PrescriptionRecord)
      .meta({ description: "Prescription register entries of their sales (the patient's details)" }),
  })
  .meta({ id: 'CustomerPersonalData' });
export type CustomerPersonalData = z.infer<typeof CustomerPersonalData>;

export const CustomerErasure = z
  .object({
    customer: Customer,
    already_erased: z
      .boolean()
      .meta({ description: 'true: an earlier erasure had already removed everything; nothing identifying was left' }),
    kept: z
      .object({ sales: z.int(), credit_tabs: z.int(), credit_payments: z.int() })
      .meta({ description: 'Records kept, anonymised, for the retention the law asks (amounts, dates, receipt numbers unchanged)' }),
  })
  .meta({ id: 'CustomerErasure' });
export type CustomerErasure = z.infer<typeof CustomerErasure>;

/** The name an erased customer's records carry instead of theirs. */
export const ERASED_CUSTOMER_NAME = 'Erased customer';
