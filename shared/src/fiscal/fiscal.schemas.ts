/**
 * Fiscal receipts through TRA's Virtual Fiscal Device (VFD) API, as the API shows them, and the
 * enumerations every side derives from (docs/fiscal.md; the wire format in docs/fiscal-wire.md).
 */
import { z } from 'zod';
import { DateString, Money, orNull, Timestamp } from '../common.js';

/**
 * TRA's tax codes: `A` standard VAT (18 %), `B` special rate, `C` zero-rated, `D` special relief,
 * `E` exempt. On the wire each is its position from 1 (`TAXCODE` 1–5).
 */
export const TaxCode = z
  .enum(['A', 'B', 'C', 'D', 'E'])
  .meta({ id: 'TaxCode', description: 'TRA tax code: A standard VAT 18 %, B special rate, C zero-rated, D special relief, E exempt' });
export type TaxCode = z.infer<typeof TaxCode>;

/** `pending`: not yet acknowledged by TRA (queued or being retried); `issued`: TRA acknowledged it; `failed`: TRA refused the last try (retried; the owner is told when it stays stuck). */
export const FiscalStatus = z.enum(['pending', 'issued', 'failed']).meta({ id: 'FiscalStatus' });
export type FiscalStatus = z.infer<typeof FiscalStatus>;

/** Which of TRA's systems a store's device talks to. */
export const FiscalEnvironment = z.enum(['test', 'production']).meta({ id: 'FiscalEnvironment' });
export type FiscalEnvironment = z.infer<typeof FiscalEnvironment>;

/** TRA's payment types (`PMTTYPE`). */
export const TraPaymentType = z.enum(['CASH', 'CHEQUE', 'CCARD', 'EMONEY', 'INVOICE']);
export type TraPaymentType = z.infer<typeof TraPaymentType>;

/** A sale's fiscal receipt: null on a sale of a store that does not fiscalise (or a sale from before it started). */
export const TransactionFiscal = z
  .object({
    status: FiscalStatus,
    rctvnum: z.string().meta({ description: "TRA's receipt verification code (receipt code + global counter)", example: '8AD1E312' }),
    gc: z.int().meta({ description: "The device's global receipt counter (RCTNUM)" }),
    dc: z.int().meta({ description: 'The daily counter (restarts each day, EAT)' }),
    issued_at: Timestamp.meta({ description: 'The receipt date and time sent to TRA' }),
    verify_url: z
      .string()
      .meta({ description: "TRA's verification page for this receipt", example: 'https://verify.tra.go.tz/8AD1E312_140509' }),
    qr: z.string().nullable().meta({
      description:
        "The verification link as a QR code, an SVG data URL, to print: null in a new sale's own answer, drawn when the sale is read",
    }),
    acknowledged_at: Timestamp.nullable().meta({ description: 'When TRA acknowledged it' }),
  })
  .meta({ id: 'TransactionFiscal' });
export type TransactionFiscal = z.infer<typeof TransactionFiscal>;

const Tin = z
  .string()
  .trim()
  .regex(/^\d{9}$/, 'a TIN is 9 digits');

export const FiscalSettingsInput = z
  .object({
    tin: Tin,
    vrn: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .nullable()
      .optional()
      .meta({ description: 'VAT registration number, when the business is VAT-registered' }),
    cert_key: z.string().trim().min(1).max(100).meta({ description: 'The certificate key TRA issued with the certificate (CERTKEY)' }),
    cert_serial: z.string().trim().min(1).max(200).meta({ description: "The client certificate's serial as TRA gave it (Cert-Serial)" }),
    certificate: z
      .string()
      .trim()
      .min(1)
      .max(100_000)
      .optional()
      .meta({ description: 'The .pfx client certificate, base64; required the first time; kept encrypted, never returned' }),
    certificate_password: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "The .pfx's password; required with `certificate`; kept encrypted, never returned" }),
    environment: FiscalEnvironment,
    enabled: z
      .boolean()
      .optional()
      .meta({ description: 'Fiscalise every paid sale from now on; true needs the device registered with TRA' }),
  })
  .meta({ id: 'FiscalSettingsInput' });
export type FiscalSettingsInput = z.infer<typeof FiscalSettingsInput>;

export const FiscalSettings = z
  .object({
    store_id: z.uuid(),
    enabled: z.boolean(),
    environment: FiscalEnvironment,
    tin: z.string(),
    vrn: z.string().nullable(),
    cert_key: z.string(),
    cert_serial: z.string(),
    has_certificate: z.boolean(),
    registration: orNull(
      z.object({
        regid: z.string(),
        efd_serial: z.string(),
        uin: z.string(),
        receipt_code: z.string(),
        name: z.string(),
        tax_office: z.string(),
        registered_at: Timestamp,
        tax_codes: z.record(z.string(), z.string()).meta({ description: "TRA's rates per code, e.g. CODEA: 18" }),
      }),
    ),
    last_gc: z.int().meta({ description: 'The global counter of the last receipt numbered' }),
    queue: z.object({
      pending: z.int().meta({ description: 'Receipts not yet acknowledged by TRA' }),
      failed: z.int().meta({ description: 'Of those, the ones TRA refused on the last try' }),
      oldest_pending_at: Timestamp.nullable(),
      last_error: z.string().nullable(),
    }),
  })
  .meta({ id: 'FiscalSettings' });
export type FiscalSettings = z.infer<typeof FiscalSettings>;

export const ZReport = z
  .object({
    id: z.uuid(),
    date: DateString,
    znumber: z.string().meta({ example: '20261124' }),
    status: FiscalStatus,
    receipts: z.int().meta({ description: 'Fiscal receipts of the day (TICKETSFISCAL)' }),
    daily_total: Money,
    gross: Money.meta({ description: 'Every receipt since registration' }),
    discounts: Money,
    corrections: Money.meta({ description: 'Refunds made that day of fiscalised sales' }),
    voids: z.int(),
    voids_total: Money,
    vat: z.record(z.string(), z.object({ net: Money, tax: Money })),
    payments: z.record(z.string(), Money),
    acknowledged_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'ZReport' });
export type ZReport = z.infer<typeof ZReport>;
