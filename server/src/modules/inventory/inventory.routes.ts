import {
  AdjustmentsQuery,
  AdjustStockInput,
  Category,
  CreateCategoryInput,
  CreateProductInput,
  Envelope,
  IdParam,
  ListProductsQuery,
  PagedEnvelope,
  Product,
  StockAdjustment,
  UpdateCategoryInput,
  UpdateProductInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Inventory'];
const deleted = { 204: { description: 'Deleted' } };

export const listCategories = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/categories',
  tags,
  summary: 'Categories with their product counts',
  responses: { 200: jsonResponse(Envelope(z.array(Category)), 'Categories') },
});

export const createCategory = defineRoute('bearer', {
  method: 'post',
  path: '/inventory/categories',
  tags,
  summary: 'Add a category (names are unique in the organisation)',
  request: { body: jsonBody(CreateCategoryInput) },
  responses: { 200: jsonResponse(Envelope(Category), 'Category') },
});

export const updateCategory = defineRoute('bearer', {
  method: 'patch',
  path: '/inventory/categories/{id}',
  tags,
  summary: 'Update a category',
  request: { params: IdParam, body: jsonBody(UpdateCategoryInput) },
  responses: { 200: jsonResponse(Envelope(Category), 'Category') },
});

export const deleteCategory = defineRoute('bearer', {
  method: 'delete',
  path: '/inventory/categories/{id}',
  tags,
  summary: 'Delete an empty category (409 while it holds products)',
  request: { params: IdParam },
  responses: deleted,
});

export const listProducts = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products',
  tags,
  summary: "Products, paged, with the active store's stock",
  request: { query: ListProductsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Product), 'Products; meta has the page') },
});

export const createProduct = defineRoute('bearer', {
  method: 'post',
  path: '/inventory/products',
  tags,
  summary: "Add a product; `stock` sets the active store's level (other stores start at 0)",
  request: { body: jsonBody(CreateProductInput) },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const getByCode = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/barcode/{code}',
  tags,
  summary: 'Find a product by barcode, then by SKU',
  request: { params: z.object({ code: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const getProduct = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/{id}',
  tags,
  summary: 'A product',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const updateProduct = defineRoute('bearer', {
  method: 'patch',
  path: '/inventory/products/{id}',
  tags,
  summary: 'Update a product; a price change is kept in its price history, a new stock level as an adjustment',
  request: { params: IdParam, body: jsonBody(UpdateProductInput) },
  responses: { 200: jsonResponse(Envelope(Product), 'Product') },
});

export const deleteProduct = defineRoute('bearer', {
  method: 'delete',
  path: '/inventory/products/{id}',
  tags,
  summary: 'Delete a product; one with sales or adjustments is deactivated instead',
  request: { params: IdParam },
  responses: deleted,
});

export const adjustStock = defineRoute('bearer', {
  method: 'post',
  path: '/inventory/products/{id}/adjust',
  tags,
  summary: "Adjust the active store's stock (409 INSUFFICIENT_STOCK below zero); a batch-tracked product's adjustment names its lot (`batch_id`) and moves that lot",
  request: { params: IdParam, body: jsonBody(AdjustStockInput) },
  responses: { 200: jsonResponse(Envelope(Product), 'Updated product') },
});

export const listAdjustments = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/products/{id}/adjustments',
  tags,
  summary: "The active store's adjustments of a product, newest first",
  request: { params: IdParam, query: AdjustmentsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(StockAdjustment)), 'Adjustments') },
});

export const lowStock = defineRoute('bearer', {
  method: 'get',
  path: '/inventory/low-stock',
  tags,
  summary: 'Products at or below their reorder point in the active store',
  responses: { 200: jsonResponse(Envelope(z.array(Product)), 'Low-stock products') },
});
