import {
  AdjustmentsQuery,
  AdjustStockInput,
  Category,
  CreateCategoryInput,
  CreateProductInput,
  CreateTransferInput,
  Envelope,
  IdParam,
  ImportProductsInput,
  ImportProductsPreview,
  ImportProductsResult,
  ListProductsQuery,
  ListTransfersQuery,
  PagedEnvelope,
  Product,
  ScannedProduct,
  StockAdjustment,
  StockTransfer,
  UpdateCategoryInput,
  UpdateProductInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, example, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Inventory'];
const deleted = { 204: { description: 'Deleted' } };
const drinks = {
  id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
  name: 'Vinywaji (Drinks)',
  description: null,
  sort_order: 1,
  is_active: true,
  product_count: 12,
  created_at: '2026-11-21T07:30:00.000Z',
  updated_at: '2026-11-21T07:30:00.000Z',
};

export const listCategories = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/categories',
  operationId: 'listCategories',
  description: "The organisation's categories with how many products each holds.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Categories with their product counts',
  responses: { 200: jsonResponse(Envelope(z.array(Category)), 'Categories', example([drinks])) },
});

export const createCategory = defineRoute('bearer', {
  method: 'post',
  path: '/inventory/categories',
  operationId: 'createCategory',
  description: "Adds a category to the organisation's catalogue.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Add a category (names are unique in the organisation)',
  request: { body: jsonBody(CreateCategoryInput, { name: 'Vinywaji (Drinks)', sort_order: 1 }) },
  responses: { 200: jsonResponse(Envelope(Category), 'Category', example({ ...drinks, product_count: 0 }, 'category created')) },
});

export const updateCategory = defineRoute('bearer', {
  method: 'patch',
  path: '/inventory/categories/{id}',
  operationId: 'updateCategory',
  description: 'Renames, reorders or (de)activates a category.',
  errors: ['DUPLICATE', 'INVALID_STATE'],
  tags,
  summary: 'Update a category',
  request: { params: IdParam, body: jsonBody(UpdateCategoryInput, { name: 'Vinywaji', is_active: true }) },
  responses: { 200: jsonResponse(Envelope(Category), 'Category') },
});

export const deleteCategory = defineRoute('bearer', {
  method: 'delete',
  path: '/inventory/categories/{id}',
  operationId: 'deleteCategory',
  description: 'Deletes a category that holds no products.',
  errors: ['CONFLICT', 'INVALID_STATE'],
  tags,
  summary: 'Delete an empty category (409 while it holds products)',
  request: { params: IdParam },
  responses: deleted,
});

export const listProducts = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products',
  operationId: 'listProducts',
  description: "The organisation's products, searched and filtered, with the active store's stock.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "Products, paged, with the active store's stock",
  request: { query: ListProductsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Product), 'Products; meta has the page') },
});

export const createProduct = defineRoute('bearer', {
  needs: { powers: ['adjust_stock'] },
  method: 'post',
  path: '/inventory/products',
  operationId: 'createProduct',
  description: "Adds a product to the organisation's catalogue; counts against the plan's product limit.",
  errors: ['DUPLICATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE', 'NOT_FOUND', 'PLAN_LIMIT'],
  tags,
  summary: "Add a product; `stock` sets the active store's level (other stores start at 0)",
  request: {
    body: jsonBody(CreateProductInput, {
      name: 'Sugar 1 kg',
      sku: 'SUG-1KG',
      barcode: '6164001234567',
      cost_price: 2800,
      selling_price: 3200,
      stock: 40,
      reorder_point: 10,
    }),
  },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const getByCode = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/barcode/{code}',
  operationId: 'getProductByBarcode',
  description:
    "What a till scanner needs: the product with this barcode (or SKU, or one of its packs' barcodes, then `scanned_pack` says which) and its stock in the active store; or, for one of the organisation's shop-scale labels (`scale_barcodes`), the product with that `scale_code` and `scale_label`, what the label sells (400 when the label's check digit is wrong).",
  errors: ['INVALID_STATE'],
  tags,
  summary: "Find a product by barcode, then by SKU, by a pack's barcode, then by scale label",
  request: { params: z.object({ code: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse(Envelope(ScannedProduct), 'The product; the pack scanned; with `scale_label` for a scale label') },
});

export const getProduct = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/{id}',
  operationId: 'getProduct',
  description: "A product with the active store's stock.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A product',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const updateProduct = defineRoute('bearer', {
  needs: { powers: ['change_price', 'adjust_stock', 'remove_product'] },
  method: 'patch',
  path: '/inventory/products/{id}',
  operationId: 'updateProduct',
  description: "Changes a product; prices and the active store's stock level are recorded (price history, stock adjustment).",
  errors: ['BUSINESS_RULE', 'DUPLICATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: 'Update a product; a price change is kept in its price history, a new stock level as an adjustment',
  request: { params: IdParam, body: jsonBody(UpdateProductInput, { selling_price: 3300, reorder_point: 12 }) },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const deleteProduct = defineRoute('bearer', {
  needs: { permission: 'stock' },
  method: 'delete',
  path: '/inventory/products/{id}',
  operationId: 'deleteProduct',
  description: 'Removes a product from the catalogue, or deactivates it when sales or adjustments refer to it.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete a product; one with sales or adjustments is deactivated instead',
  request: { params: IdParam },
  responses: deleted,
});

export const adjustStock = defineRoute('bearer', {
  needs: { permission: 'stock' },
  method: 'post',
  path: '/inventory/products/{id}/adjust',
  operationId: 'adjustStock',
  description: "Changes the active store's stock of a product by `qty_change`, with a reason, in one transaction.",
  errors: ['BUSINESS_RULE', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary:
    "Adjust the active store's stock (409 INSUFFICIENT_STOCK below zero); a batch-tracked product's adjustment names its lot (`batch_id`) and moves that lot",
  request: {
    params: IdParam,
    body: jsonBody(AdjustStockInput, { qty_change: -2, reason: 'damaged', note: 'two bags torn in the store room' }),
  },
  responses: { 200: jsonResponse(Envelope(Product), 'Updated product') },
});

export const listAdjustments = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/{id}/adjustments',
  operationId: 'listStockAdjustments',
  description: 'Who changed the stock of a product in the active store, by how much and why.',
  errors: ['INVALID_STATE'],
  tags,
  summary: "The active store's adjustments of a product, newest first",
  request: { params: IdParam, query: AdjustmentsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(StockAdjustment)), 'Adjustments') },
});

export const lowStock = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/low-stock',
  operationId: 'listLowStock',
  description: 'What to reorder: products of the active store at or below their reorder point.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Products at or below their reorder point in the active store',
  responses: { 200: jsonResponse(Envelope(z.array(Product)), 'Low-stock products') },
});

export const importProducts = defineRoute('bearer', {
  needs: { permission: 'stock' },
  method: 'post',
  path: '/inventory/products/import',
  operationId: 'importProducts',
  description:
    "Creates products from a catalogue CSV (the columns of GET /inventory/products/export, in any order; a category named that does not exist is created), all in one transaction or none: every row is checked as POST /inventory/products checks a product, and barcodes and SKUs repeated in the file or already the organisation's are refused. A problem is named by row as a spreadsheet numbers it (the header is row 1, so the first product is row 2): `field` is `rows[N].column`. `dry_run: true` answers the check and a preview, writing nothing; otherwise any problem answers 400 with every problem and nothing is written. At most 5,000 products (413 beyond).",
  errors: ['DUPLICATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'PLAN_LIMIT'],
  tags,
  summary: 'Import the catalogue from CSV (dry run: a preview and every problem; else all rows or none)',
  request: {
    body: jsonBody(ImportProductsInput, {
      csv: 'name,sku,barcode,category,selling_price,cost_price,stock,reorder_point,unit\r\nSugar 1 kg,SUG-1KG,6164001234567,Groceries,3200,2800,40,10,piece\r\n',
      dry_run: true,
    }),
  },
  responses: {
    200: jsonResponse(Envelope(ImportProductsPreview), 'The dry run: rows, valid rows, every problem and the first 20 rows as parsed'),
    201: jsonResponse(Envelope(ImportProductsResult), 'Imported: how many products (and new categories) were created'),
  },
});

export const exportProducts = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/export',
  operationId: 'exportProducts',
  description:
    "The active products (services left out) as CSV with the active store's stock: name, sku, barcode, category, selling_price, cost_price, stock, reorder_point, unit; the file POST /inventory/products/import reads back.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Export the catalogue as CSV',
  responses: {
    200: {
      description: 'A download',
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

const transfer = {
  id: '9b1c2d3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e',
  from_store_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  from_store_name: 'Duka la Amina',
  to_store_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  to_store_name: 'Kariakoo Branch',
  lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', name: 'Sugar 1 kg', unit: 'piece' as const, qty: 12 }],
  note: 'for the weekend',
  created_by: '4c5d6e7f-8a9b-4c0d-8e1f-2a3b4c5d6e7f',
  created_at: '2026-11-30T07:30:00.000Z',
};

export const createTransfer = defineRoute('bearer', {
  needs: { permission: 'stock' },
  method: 'post',
  path: '/inventory/transfers',
  operationId: 'createStockTransfer',
  description:
    "Moves stock from the active store to another active store of the organisation in one transaction: each line leaves here as a `transfer_out` adjustment and arrives there as a `transfer_in` one, and both stores' tills pull the new levels. Refused whole when a line would take this store's stock below zero.",
  errors: ['BUSINESS_RULE', 'INSUFFICIENT_STOCK', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Transfer stock to another store of the organisation (409 INSUFFICIENT_STOCK naming the line, nothing moved)',
  request: {
    body: jsonBody(CreateTransferInput, {
      to_store_id: transfer.to_store_id,
      lines: [{ product_id: transfer.lines[0]!.product_id, qty: 12 }],
      note: 'for the weekend',
    }),
  },
  responses: { 200: jsonResponse(Envelope(StockTransfer), 'The transfer', example(transfer, 'stock transferred')) },
});

export const listTransfers = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/transfers',
  operationId: 'listStockTransfers',
  description: 'Transfers that left or reached the active store, newest first.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's transfers out and in, paged",
  request: { query: ListTransfersQuery },
  responses: { 200: jsonResponse(PagedEnvelope(StockTransfer), 'Transfers; meta has the page') },
});
