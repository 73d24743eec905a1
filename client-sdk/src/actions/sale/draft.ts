/**
 * The sale as the till's stages build it (issue 50): each stage reads what the ones before it
 * found and answers its own part, which the next ones take. Nothing here is written until `writeSale`.
 */
import type {
  BatchAllocation,
  Customer,
  PricedSale,
  PriceMode,
  Product,
  ProductPack,
  SaleCreatePayload,
  SaleMethod,
  TenderPart,
} from '@duka/shared';
import type { SellInput } from '../../types.js';
import type { Shop } from '../context.js';
import type { SaleCounters } from './sale-read.js';

/**
 * A line of the sale merged per product and pack (`mergeSaleLines`): `index` is its first line in
 * the input. `qty` is in counts of the product's unit (issue 51: grams of a kg product); a line by
 * the pack has its `pack` and how many (`packs`), qty = packs × the pack's units; `label` is the
 * part sold by shop-scale price labels (counts, and the labels' amount in cents), as the server's.
 */
export interface SaleLine {
  index: number;
  product_id: string;
  qty: number;
  pack?: { pack: ProductPack; packs: number };
  label?: { qty: number; amount: number };
}

/** A line scanned from a scale label, kept whole so the queued sale carries the label (`scale_barcode`). */
export interface LabelLine {
  index: number;
  product_id: string;
  /** Counts of the product's unit. */
  qty: number;
  barcode: string;
}

/** `resolveLines`: the shop, the merged lines with their products, the customer, the price mode and discount. */
export interface ResolvedSale {
  input: SellInput;
  shop: Shop;
  lines: SaleLine[];
  /** The lines read from scale labels, as scanned (their quantities are inside `lines` too). */
  labels: LabelLine[];
  products: Map<string, Product>;
  customer: Customer | null;
  mode: PriceMode;
  discountBp: number;
  /** When the sale is made, epoch ms (till clock): prescriptions and lots are judged by its day. */
  at: number;
  /** The signed-in cashier's open shift, read with the shop (`assignShift` decides). */
  openShift: string | undefined;
  /** The receipt and queue counters, moved with the read (`numberSale` names them). */
  counters: SaleCounters;
}

/** `takeStock`: units each product's level falls by, and the lots each batch-tracked product takes them from. */
export interface TakenStock {
  stock: Record<string, number>;
  lots: Map<string, BatchAllocation[]>;
}

/** `numberSale`: the till's receipt number and the queue seq taken with it. */
export interface SaleNumber {
  clientReceiptNumber: string;
  seq: number;
}

/** `settleTender`: the sale's payment as settled: its parts (cents, adding up to the total) and the cash handed over and its change. */
export interface TillTender {
  /** The one method, or `Mixed`. */
  method: SaleMethod;
  parts: TenderPart[];
  /** Cents; undefined when the cashier did not say (no cash part, or a cash sale without a tender). */
  tendered: number | undefined;
  change: number | undefined;
}

/** Everything `writeSale` writes: the stages' answers, the sale's id. */
export interface PlannedSale {
  id: string;
  sale: ResolvedSale;
  priced: PricedSale;
  /** `settleTender`: the parts, the cash handed over and its change. */
  tender: TillTender;
  taken: TakenStock;
  shiftId: string | undefined;
  number: SaleNumber;
}

/** The `sale.create` payload as queued (parsed by its schema). */
export type QueuedSale = ReturnType<typeof SaleCreatePayload.parse>;
