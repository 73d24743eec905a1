import {
  AdminCreditTab,
  AdminCustomer,
  AdminDelivery,
  AdminExpense,
  AdminNote,
  AdminNotification,
  AdminReview,
  AdminSupplier,
  AdminSupplierPayment,
  Envelope,
  IdParam,
  ListAdminCreditsQuery,
  ListAdminCustomersQuery,
  ListAdminDeliveriesQuery,
  ListAdminExpensesQuery,
  ListAdminNotesQuery,
  ListAdminNotificationsQuery,
  ListAdminReviewsQuery,
  ListAdminSupplierPaymentsQuery,
  ListAdminSuppliersQuery,
  PagedEnvelope,
  UpdateAdminReviewInput,
} from '@duka/shared';
import type { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

type Named = { operationId: string; description: string };

function list<Q extends z.ZodObject, I extends z.ZodType>(
  { operationId, description }: Named,
  path: string,
  summary: string,
  query: Q,
  item: I,
) {
  return defineRoute('admin', {
    method: 'get',
    path,
    operationId,
    description,
    tags,
    summary,
    request: { query },
    responses: { 200: jsonResponse(PagedEnvelope(item), 'A page') },
  });
}

function listOf<Q extends z.ZodObject, I extends z.ZodType>(
  { operationId, description }: Named,
  path: string,
  summary: string,
  query: Q,
  item: I,
) {
  return defineRoute('admin', {
    method: 'get',
    path,
    operationId,
    description,
    tags,
    summary,
    request: { params: IdParam, query },
    responses: { 200: jsonResponse(PagedEnvelope(item), 'A page') },
  });
}

export const listCustomers = list(
  { operationId: 'listAllCustomers', description: 'Customers of every organisation.' },
  '/admin/customers',
  'Customers of every organisation with their outstanding balance, newest first',
  ListAdminCustomersQuery,
  AdminCustomer,
);
export const listCredits = list(
  { operationId: 'listAllCreditTabs', description: 'Credit tabs of every organisation.' },
  '/admin/credits',
  'Credit tabs of every organisation, newest first',
  ListAdminCreditsQuery,
  AdminCreditTab,
);
export const listSuppliers = list(
  { operationId: 'listAllSuppliers', description: 'Suppliers of every organisation.' },
  '/admin/suppliers',
  'Suppliers (not deleted) of every organisation, by name, with delivery and payment counts',
  ListAdminSuppliersQuery,
  AdminSupplier,
);
export const supplierDeliveries = listOf(
  { operationId: 'listAnySupplierDeliveries', description: "Any supplier's deliveries." },
  '/admin/suppliers/{id}/deliveries',
  "A supplier's deliveries to every store, newest first",
  ListAdminDeliveriesQuery,
  AdminDelivery,
);
export const supplierPayments = listOf(
  { operationId: 'listAnySupplierPayments', description: 'Payments to any supplier.' },
  '/admin/suppliers/{id}/payments',
  'Payments made to a supplier, newest first',
  ListAdminSupplierPaymentsQuery,
  AdminSupplierPayment,
);
export const listExpenses = list(
  { operationId: 'listAllExpenses', description: 'Expenses of every store.' },
  '/admin/expenses',
  'Expenses of every store, newest first',
  ListAdminExpensesQuery,
  AdminExpense,
);
export const listReviews = list(
  { operationId: 'listAllReviews', description: 'Every review, for moderation.' },
  '/admin/reviews',
  'Reviews, published or hidden, newest first',
  ListAdminReviewsQuery,
  AdminReview,
);
export const listNotes = list(
  { operationId: 'listAllNotes', description: 'Notebook notes of every store.' },
  '/admin/notes',
  'Notebook notes (not deleted) of every store, last edited first',
  ListAdminNotesQuery,
  AdminNote,
);
export const listNotifications = list(
  { operationId: 'listAllNotifications', description: 'Notifications of every store.' },
  '/admin/notifications',
  'Notifications of every store, newest first',
  ListAdminNotificationsQuery,
  AdminNotification,
);

export const updateReview = defineRoute('admin', {
  method: 'patch',
  path: '/admin/reviews/{id}',
  operationId: 'moderateReview',
  description: 'Publishes or hides a review.',
  tags,
  summary: 'Publish or hide a review (hidden ones leave GET /reviews/public); audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminReviewInput, { is_published: true }) },
  responses: { 200: jsonResponse(Envelope(AdminReview), 'The review') },
});

export const deleteReview = defineRoute('admin', {
  method: 'delete',
  path: '/admin/reviews/{id}',
  operationId: 'deleteReview',
  description: 'Deletes a review.',
  tags,
  summary: 'Delete a review for good; audited',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});
