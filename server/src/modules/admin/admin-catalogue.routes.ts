import {
  AdminCategory,
  AdminProduct,
  AdminProductDetail,
  AdminTransaction,
  AdminTransactionsSummary,
  AdminTransactionsSummaryQuery,
  CreateAdminCategoryInput,
  Envelope,
  IdParam,
  ListAdminCategoriesQuery,
  ListAdminProductsQuery,
  ListAdminTransactionsQuery,
  PagedEnvelope,
  UpdateAdminProductInput,
  UpdateCategoryInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const listProducts = defineRoute('admin', {
  method: 'get',
  path: '/admin/products',
  operationId: 'listAllProducts',
  description: 'Products of every organisation.',
  tags,
  summary: 'Products of every organisation, by organisation then name; `stock` is the total over its stores',
  request: { query: ListAdminProductsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminProduct), 'A page of products') },
});

export const getProduct = defineRoute('admin', {
  method: 'get',
  path: '/admin/products/{id}',
  operationId: 'getProductDetail',
  description: 'Any product with its stock per store.',
  tags,
  summary: 'One product with stock per store, units sold and price history count',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AdminProductDetail), 'The product') },
});

export const updateProduct = defineRoute('admin', {
  method: 'patch',
  path: '/admin/products/{id}',
  operationId: 'updateAnyProduct',
  description: "Corrects any organisation's product (not its stock).",
  errors: ['BUSINESS_RULE', 'DUPLICATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: 'Edit a product with the owner PATCH rules (no stock); audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminProductInput, { name: 'Sugar 1 kg (Kilombero)', barcode: '6164001234567' }) },
  responses: { 200: jsonResponse(Envelope(AdminProductDetail), 'The product') },
});

export const listCategories = defineRoute('admin', {
  method: 'get',
  path: '/admin/categories',
  operationId: 'listAllCategories',
  description: 'Categories of every organisation.',
  tags,
  summary: 'Categories of every organisation with their product counts',
  request: { query: ListAdminCategoriesQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminCategory), 'A page of categories') },
});

export const createCategory = defineRoute('admin', {
  method: 'post',
  path: '/admin/categories',
  operationId: 'createCategoryFor',
  description: "Adds a category to an organisation's catalogue.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "Add a category to an organisation's catalogue (names unique per organisation); audited",
  request: { body: jsonBody(CreateAdminCategoryInput, { org_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Vinywaji (Drinks)' }) },
  responses: { 201: jsonResponse(Envelope(AdminCategory), 'The category') },
});

export const updateCategory = defineRoute('admin', {
  method: 'patch',
  path: '/admin/categories/{id}',
  operationId: 'updateAnyCategory',
  description: "Changes any organisation's category.",
  errors: ['DUPLICATE', 'INVALID_STATE'],
  tags,
  summary: 'Edit a category; audited',
  request: { params: IdParam, body: jsonBody(UpdateCategoryInput, { name: 'Vinywaji' }) },
  responses: { 200: jsonResponse(Envelope(AdminCategory), 'The category') },
});

export const deleteCategory = defineRoute('admin', {
  method: 'delete',
  path: '/admin/categories/{id}',
  operationId: 'deleteAnyCategory',
  description: "Deletes any organisation's empty category.",
  errors: ['CONFLICT', 'INVALID_STATE'],
  tags,
  summary: 'Delete an empty category (409 while it holds products); audited',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

export const transactionsSummary = defineRoute('admin', {
  method: 'get',
  path: '/admin/transactions/summary',
  operationId: 'getAllSalesSummary',
  description: 'Sales totals of the whole platform.',
  tags,
  summary: 'Sales totals over the filters (all time without dates)',
  request: { query: AdminTransactionsSummaryQuery },
  responses: { 200: jsonResponse(Envelope(AdminTransactionsSummary), 'Totals') },
});

export const listTransactions = defineRoute('admin', {
  method: 'get',
  path: '/admin/transactions',
  operationId: 'listAllSales',
  description: 'Sales of every organisation.',
  tags,
  summary: 'Sales of every organisation with their lines, newest first',
  request: { query: ListAdminTransactionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminTransaction), 'A page of transactions') },
});

export const getTransaction = defineRoute('admin', {
  method: 'get',
  path: '/admin/transactions/{id}',
  operationId: 'getAnySale',
  description: 'Any sale with its lines.',
  tags,
  summary: 'One sale with its lines',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AdminTransaction), 'The transaction') },
});
