/**
 * What a set of sales is planned against (issue 17): one online sale, or a pushed batch of a till's
 * offline sales, read once by `loadSaleSet` (load-sale-set.ts) and moved on in memory by `planSale`
 * as each sale is booked, so the pipeline's stages never go back to the database.
 */
import type { AddoEntry, CreateSaleInput, LineBatchInput, MoneyPart, SaleSource, TenderPart } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import type { ProductPackRow, ProductRow } from '../../../db/tables/inventory.table.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import type { Actor } from '../../../lib/context.js';
import type { ShiftCandidate } from '../../tenancy/tenancy.exports.js';
import type { ScaleLabels } from './scale-labels.js';

export interface SaleOptions {
  /** What is recorded as the sale's `source` (how it was rung up). */
  source: SaleSource;
  /** Pushed: the day the sale is booked on (the till's time when its clock was right, else the receipt time). */
  occurredAt?: number;
  /** Pushed: the till's own time for the sale, as sent. */
  clientCreatedAt?: number;
  clientReceiptNumber?: string;
  /**
   * The device that pushed the sale: present, the sale has already happened on a till, so a rule it
   * broke is booked with a conflict where one allows it; absent (POST /pos/sale), any breach refuses it.
   */
  deviceId?: string;
  /** Pushed cash sale: the change the till gave, cents (its tender judged by the caller against the till's total). */
  changeGiven?: number;
  /** Pushed split sale: its parts as the till settled them at its own total (judged by the caller). */
  tillParts?: TenderPart[];
  /** Offline: the unit price the till charged per product, cents (reconciled by the caller). */
  unitPrices?: Map<string, number>;
  /** Offline (issue 51): one pack's price as the till charged it, per pack id, cents (booked as charged). */
  packPrices?: Map<string, number>;
  /** A push at checkout the provider confirmed paid: the sale is booked verified, never waiting for a match. */
  paymentConfirmed?: boolean;
  /**
   * An exchange's new sale (issue 52): the parts of the refund it replaces, cents. Its parts are paid
   * by them first (`mirroredOf`): not new money, so a mobile-money part waits only for the rest.
   */
  mirrored?: MoneyPart[];
  /** Offline: the member of the organisation who rang it up (checked by the caller); default the actor. */
  cashierId?: string;
  /** Offline: the batches the till took each product's units from (kept when they still hold them). */
  lineBatches?: Map<string, LineBatchInput[]>;
  /** Offline: the till's open shift when it made the sale (used when it is this store's; else the cashier's open shift). */
  shiftId?: string;
}

export interface SaleRequest {
  input: CreateSaleInput;
  opts: SaleOptions;
  /** Who asked for this sale, when several requests' sales share one transaction (sell-online.ts); default the transaction's actor. */
  actor?: Actor;
}

/** The figures the sales are planned against; `planSale` moves them on as each sale is planned. */
export interface SaleSet {
  orgId: string;
  storeId: string;
  online: boolean;
  /** `fiscal`: 1 when the store's fiscal device is switched on (its sales are numbered for TRA). */
  store: { code: string; vat_enabled: number; outlet_type: string | null; last_number: number; fiscal: number };
  org: { business_type: string; timezone: string; credit_terms_days: number };
  /** The store takes mobile money through a collection account: its mobile-money sales are checked against the provider's reports. */
  collects: boolean;
  products: Map<string, ProductRow>;
  /** The packs the sales' lines name (issue 51), by id: the organisation's only. */
  packs: Map<string, ProductPackRow>;
  /** Sales by id: those already recorded (any organisation) and those planned in this set. */
  sales: Map<string, TransactionRow>;
  customers: Map<string, CustomerRow>;
  customersByPhone: Map<string, CustomerRow>;
  /** Cents owed, per customer with a credit limit who buys on credit in this set. */
  owed: Map<string, number>;
  /** Stock per product (every stock product of the set, 0 for a row created at load). */
  stock: Map<string, number>;
  /** Main batch rows per batch-tracked product, as planned so far. */
  batches: Map<string, BatchRow[]>;
  /** Each batch as read (the ledger applies the moves from there). */
  batchesRead: Map<string, BatchRow>;
  permitted: AddoEntry[];
  /** The shifts the sales may belong to: those named and those open for their cashiers (issue 37). */
  shifts: ShiftCandidate[];
  /** The organisation's scale label layouts and the products the set's labels name (issue 51; empty when no line is a label). */
  labels: ScaleLabels;
}
