/**
 * The sync protocol of design brief §4, byte for byte the same on the till and the server.
 *
 * PROTOCOL_VERSION history:
 * 1: push (mutations in seq order), pull (change log after a cursor), bootstrap (paged snapshot),
 *    websocket pokes. From 2026-11 the till names its version in the `Duka-Sync-Protocol` header
 *    of push, pull and bootstrap; a request without it comes from a till older than the header,
 *    which spoke version 1.
 */
import { z } from 'zod';
import { MoneyInput, QueryBool } from '../common.js';
import { NoteTags } from '../notebook/notebook.schemas.js';
import { CreateExpenseInput } from '../expenses/expenses.schemas.js';
import { PaymentMethod, SettlementMethod } from '../payment-methods.js';
import { CustomerTin, PriceMode, SaleSource } from '../pos/pos.schemas.js';
import { LineBatchInput } from '../pharmacy/batch.schemas.js';
import { QtyChange } from '../inventory/inventory.schemas.js';
import { Prescription } from '../pharmacy/prescription.schemas.js';
import { CloseShiftInput, OpenShiftInput } from '../pos/shift.schemas.js';
import { TzMobileNumber } from '../payments/msisdn.js';
import { PaymentRequestState } from '../payments/push.schemas.js';

export const PROTOCOL_VERSION = 1;
/**
 * The oldest version the server still serves. Raise it, with a line in the history above, only when
 * a change breaks older tills: they are answered 426 `UNSUPPORTED_PROTOCOL` and ask to be updated.
 */
export const MIN_SUPPORTED_PROTOCOL_VERSION = 1;
/** The request header carrying the till's protocol version on push, pull and bootstrap. */
export const PROTOCOL_HEADER = 'duka-sync-protocol';

/**
 * The till's open shift when it did something that moves money (a sale, refund, void, expense or
 * credit payment). Used when it names a shift of this organisation and store; otherwise the
 * pusher's open shift there is (never a reason to reject: a sale is never lost over its shift).
 */
const ShiftRef = z.uuid().optional().meta({ description: "The till's open shift when this was done" });

/** A sale the till already made: its lines carry the unit price the till charged. */
export const SaleCreatePayload = z.object({
  id: z.uuid().meta({ description: 'The sale id the till gave it' }),
  client_receipt_number: z.string().trim().min(1).max(60),
  lines: z
    .array(
      z.object({
        product_id: z.uuid(),
        qty: z.int().min(1).max(100_000),
        unit_price: MoneyInput,
        batches: z
          .array(LineBatchInput)
          .max(50)
          .optional()
          .meta({ description: 'The batches the till took the units from (batch-tracked products)' }),
      }),
    )
    .min(1)
    .max(500),
  payment_method: PaymentMethod,
  payment_reference: z.string().trim().max(100).optional(),
  payment_phone: TzMobileNumber.optional(),
  discount_pct: z.number().min(0).max(100).optional(),
  customer_id: z.uuid().optional(),
  customer_name: z.string().trim().min(1).max(150).optional(),
  customer_phone: z.string().trim().min(7).max(20).optional(),
  customer_tin: CustomerTin.optional(),
  till_number: z.string().trim().max(30).optional(),
  notes: z.string().trim().max(1000).optional(),
  price_mode: PriceMode.optional(),
  cashier_id: z.uuid().optional().meta({
    description:
      'Who rang the sale up on the till (the user signed in then). The sale is always booked to the user pushing; another user named here is recorded as a `cashier_mismatch` conflict',
  }),
  prescription: Prescription.optional(),
  shift_id: ShiftRef,
  cash_tendered: MoneyInput.optional().meta({
    description: "Cash sales: the cash handed over, at least the sale's total at the till's prices (the till refuses less)",
  }),
  source: SaleSource.optional().meta({
    description: 'Whether the till reached the server when the cashier rang the sale up (default offline: a till that does not say)',
  }),
});
export const SaleReversePayload = z.object({ transaction_id: z.uuid(), reason: z.string().trim().min(1).max(500), shift_id: ShiftRef });
export const CustomerUpsertPayload = z.object({
  id: z.uuid(),
  name: z.string().trim().min(1).max(150),
  phone: z.string().trim().min(7).max(20).optional(),
  email: z.email().optional(),
  /** TZS, 0 = no limit. */
  credit_limit: MoneyInput.optional(),
  notes: z.string().trim().max(1000).optional(),
});
export type CustomerUpsertPayload = z.infer<typeof CustomerUpsertPayload>;
export const CreditPaymentPayload = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  /** TZS, more than 0 and at most what the customer owes. */
  amount: MoneyInput.refine((v) => v > 0, 'must be more than 0'),
  method: SettlementMethod,
  reference: z.string().trim().max(100).optional(),
  note: z.string().trim().max(500).optional(),
  shift_id: ShiftRef,
});
export type CreditPaymentPayload = z.infer<typeof CreditPaymentPayload>;
export const StockAdjustPayload = z.object({
  product_id: z.uuid(),
  /** Units added (positive) or taken (negative); never 0. */
  qty_change: QtyChange,
  /** e.g. `damaged`, `count`, `received`. */
  reason: z.string().trim().min(1).max(100),
  note: z.string().trim().max(500).optional(),
  /** The lot adjusted: required for a batch-tracked product, as on `POST /inventory/products/{id}/adjust`. */
  batch_id: z.uuid().optional(),
});
export type StockAdjustPayload = z.infer<typeof StockAdjustPayload>;
export const NotificationReadPayload = z.object({ notification_id: z.uuid() });
/** An expense the till recorded; `spent_at` defaults to the mutation's `created_at`. */
export const ExpenseCreatePayload = CreateExpenseInput.extend({
  id: z.uuid().meta({ description: 'The expense id the till gave it' }),
  shift_id: ShiftRef,
});
/** A shift the till opened: its `id` is the till's, so a replay answers the same shift. */
export const ShiftOpenPayload = OpenShiftInput.required({ id: true });
export type ShiftOpenPayload = z.infer<typeof ShiftOpenPayload>;
/** The close of a shift, counted at the till. */
export const ShiftClosePayload = CloseShiftInput.extend({ shift_id: z.uuid() });
export type ShiftClosePayload = z.infer<typeof ShiftClosePayload>;
/**
 * A till's edit of a note: `update` is a yjs update (base64) of the note's document, whose body is
 * `doc.getText(NOTE_TEXT)` ('content'); the server merges it, so edits made elsewhere are kept.
 * `title` and `tags`, when given, replace the server's (last writer wins). A note the server does
 * not have yet is created in the till's store (`title` defaults to "Untitled note").
 */
export const NoteUpdatePayload = z.object({
  note_id: z.uuid(),
  update: z.base64().min(1).max(4_000_000).meta({ description: 'base64 yjs update (`AAA=` when only title or tags change)' }),
  title: z.string().trim().min(1).max(200).optional(),
  tags: NoteTags.optional(),
});

/** Every mutation type and its payload schema. */
export const MUTATION_PAYLOADS = {
  'sale.create': SaleCreatePayload,
  'sale.refund': SaleReversePayload,
  'sale.void': SaleReversePayload,
  'customer.upsert': CustomerUpsertPayload,
  'credit.payment': CreditPaymentPayload,
  'stock.adjust': StockAdjustPayload,
  'expense.create': ExpenseCreatePayload,
  'note.update': NoteUpdatePayload,
  'notification.read': NotificationReadPayload,
  'shift.open': ShiftOpenPayload,
  'shift.close': ShiftClosePayload,
} as const;
export type MutationType = keyof typeof MUTATION_PAYLOADS;
export const MutationType = z.enum(Object.keys(MUTATION_PAYLOADS) as [MutationType, ...MutationType[]]);

export const Mutation = z
  .object({
    /** Client uuid (v7). */
    id: z.uuid(),
    /** Increases by one per device. */
    seq: z.int().min(1),
    type: MutationType,
    /** When the till did it. */
    created_at: z.iso.datetime({ offset: true }),
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Mutation' });
export type Mutation = z.infer<typeof Mutation>;

export const MAX_PUSH_MUTATIONS = 500;
export const PushRequest = z
  .object({
    device_id: z.uuid(),
    mutations: z
      .array(Mutation)
      .min(1)
      .meta({ description: `At most ${MAX_PUSH_MUTATIONS} (413 beyond)` }),
  })
  .meta({ id: 'PushRequest' });
export type PushRequest = z.infer<typeof PushRequest>;

/**
 * What an offline sale can break and still be booked (design §4): the till charged a price the
 * catalogue no longer has (`stale_price`) or one it never had (`price_mismatch`), sold more than
 * the server's stock (`oversold`), went over the customer's credit limit, sold a product taken off
 * sale, or gave a discount without the permission; in a pharmacy, dispensed a batch that was
 * recalled, quarantined or expired by then (`dispensed_unsellable_batch`), sold a prescription
 * medicine without a complete prescription (`prescription`), or sold in an ADDO a medicine not on
 * its list (`not_permitted_for_addo`); or the till named as cashier someone other than the user whose
 * session pushed it (`cashier_mismatch`: the sale is booked to the pusher); or the till's clock was
 * wrong (`clock`: a sale dated in the future, or before a time the till had already reported; it is
 * booked at the server's receipt time, both times in the detail); or named a shift the till may not
 * book into (`shift`: another cashier's, booked to the pusher's own open shift instead, or a closed
 * one, booked to no shift, so a counted drawer's figures never move). The one list: the sale rules, the push and the conflicts API
 * all use it.
 */
export const ConflictKind = z.enum([
  'stale_price',
  'price_mismatch',
  'oversold',
  'credit_limit',
  'inactive_product',
  'permission',
  'dispensed_unsellable_batch',
  'prescription',
  'not_permitted_for_addo',
  'cashier_mismatch',
  'clock',
  'shift',
]);
export type ConflictKind = z.infer<typeof ConflictKind>;

/** A rule an offline sale broke: the sale is booked and this is recorded for the owner to review. */
export interface SaleConflict {
  kind: ConflictKind;
  message: string;
  product_id?: string;
  detail?: Record<string, unknown>;
}

/** What the server made of a pushed mutation: `duplicate` when it had already applied that id. */
export const MutationStatus = z.enum(['applied', 'duplicate', 'rejected']);
export type MutationStatus = z.infer<typeof MutationStatus>;

export const MutationResult = z
  .object({
    id: z.uuid(),
    seq: z.int(),
    status: MutationStatus,
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    /** What the server made of it, e.g. `{ transaction_id, number, receipt_number }` for a sale. */
    result: z.record(z.string(), z.unknown()).optional(),
    conflicts: z.array(z.object({ kind: ConflictKind, message: z.string(), product_id: z.string().optional() })).optional(),
  })
  .meta({ id: 'MutationResult' });
export type MutationResult = z.infer<typeof MutationResult>;

/** The server's clock when it answered: a till learns from it how far its own clock is off. */
const ServerTime = z.iso.datetime().meta({ description: "The server's time when it answered (the till measures its clock against it)" });

export const PushResponse = z
  .object({ results: z.array(MutationResult), last_applied_seq: z.int(), server_time: ServerTime })
  .meta({ id: 'PushResponse' });
export type PushResponse = z.infer<typeof PushResponse>;

export const RegisterDeviceInput = z
  .object({ device_id: z.uuid(), name: z.string().trim().min(1).max(100) })
  .meta({ id: 'RegisterDeviceInput' });
export const Device = z
  .object({ device_id: z.uuid(), name: z.string(), till_code: z.string(), store_id: z.uuid(), last_applied_seq: z.int() })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;
export type RegisterDeviceInput = z.infer<typeof RegisterDeviceInput>;

/** Entities a till holds (design §4). */
export const SyncEntity = z.enum([
  'organisation',
  'store',
  'category',
  'product',
  'stock',
  'customer',
  'credit_tab',
  'transaction',
  'note',
  'notification',
  'batch',
]);
export type SyncEntity = z.infer<typeof SyncEntity>;
export const ChangeOp = z.enum(['upsert', 'delete']);
export type ChangeOp = z.infer<typeof ChangeOp>;

export const Change = z
  .object({
    entity: SyncEntity,
    op: ChangeOp,
    id: z.string(),
    version: z.int(),
    /** The row as the till stores it (absent for deletes). */
    data: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'Change' });
export type Change = z.infer<typeof Change>;

export const PullQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export const PullResponse = z
  .object({
    changes: z.array(Change),
    /** Opaque: send it back as `cursor`. */
    cursor: z.string(),
    has_more: z.boolean(),
    /** The cursor is older than the change log keeps: re-bootstrap. */
    reset_required: z.boolean(),
    /**
     * The version of the platform's ADDO-permitted list now. The list is platform data, outside the
     * organisation's change log: a till of an ADDO store holding another version fetches it again
     * from `GET /pharmacy/addo-list`.
     */
    addo_list_version: z
      .int()
      .min(0)
      .meta({ description: "The ADDO-permitted list's version now; an ADDO till holding another fetches `GET /pharmacy/addo-list` again" }),
    server_time: ServerTime,
  })
  .meta({ id: 'PullResponse' });
export type PullResponse = z.infer<typeof PullResponse>;

export const BootstrapQuery = z.object({
  page_token: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
export const BootstrapResponse = z
  .object({
    rows: z.array(Change),
    /** Absent on the last page. */
    page_token: z.string().nullable(),
    /** Pull from here once every page is loaded. */
    cursor: z.string(),
    /** Rows in the whole snapshot, for a progress bar. */
    total: z.int(),
  })
  .meta({ id: 'BootstrapResponse' });
export type BootstrapResponse = z.infer<typeof BootstrapResponse>;

/** Websocket messages from server to till. */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.int(), protocol: z.int() }),
  z.object({ type: z.literal('poke'), version: z.int() }),
  z.object({ type: z.literal('notification'), notification: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('stock'), product_id: z.string(), stock: z.int() }),
  z.object({ type: z.literal('payment'), payment: PaymentRequestState }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

export const SyncConflict = z
  .object({
    id: z.uuid(),
    kind: ConflictKind,
    message: z.string(),
    device_id: z.uuid().nullable(),
    mutation_id: z.uuid().nullable(),
    transaction_id: z.uuid().nullable(),
    product_id: z.uuid().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
    resolved: z.boolean(),
    resolution_note: z.string().nullable(),
    resolved_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SyncConflict' });
export type SyncConflict = z.infer<typeof SyncConflict>;

export const ListConflictsQuery = z.object({
  kind: ConflictKind.optional(),
  resolved: QueryBool.optional(),
  device_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100)),
});
export const ResolveConflictInput = z.object({ note: z.string().trim().min(1).max(1000) }).meta({ id: 'ResolveConflictInput' });
