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

function list<Q extends z.ZodObject, I extends z.ZodType>(path: string, summary: string, query: Q, item: I) {
  return defineRoute('admin', { method: 'get', path, tags, summary, request: { query }, responses: { 200: jsonResponse(PagedEnvelope(item), 'A page') } });
}

function listOf<Q extends z.ZodObject, I extends z.ZodType>(path: string, summary: string, query: Q, item: I) {
  return defineRoute('admin', { method: 'get', path, tags, summary, request: { params: IdParam, query }, responses: { 200: jsonResponse(PagedEnvelope(item), 'A page') } });
}

export const listCustomers = list('/admin/customers', 'Customers of every organisation with their outstanding balance, newest first', ListAdminCustomersQuery, AdminCustomer);
export const listCredits = list('/admin/credits', 'Credit tabs of every organisation, newest first', ListAdminCreditsQuery, AdminCreditTab);
export const listSuppliers = list('/admin/suppliers', 'Suppliers (not deleted) of every organisation, by name, with delivery and payment counts', ListAdminSuppliersQuery, AdminSupplier);
export const supplierDeliveries = listOf('/admin/suppliers/{id}/deliveries', "A supplier's deliveries to every store, newest first", ListAdminDeliveriesQuery, AdminDelivery);
export const supplierPayments = listOf('/admin/suppliers/{id}/payments', 'Payments made to a supplier, newest first', ListAdminSupplierPaymentsQuery, AdminSupplierPayment);
export const listExpenses = list('/admin/expenses', 'Expenses of every store, newest first', ListAdminExpensesQuery, AdminExpense);
export const listReviews = list('/admin/reviews', 'Reviews, published or hidden, newest first', ListAdminReviewsQuery, AdminReview);
export const listNotes = list('/admin/notes', 'Notebook notes (not deleted) of every store, last edited first', ListAdminNotesQuery, AdminNote);
export const listNotifications = list('/admin/notifications', 'Notifications of every store, newest first', ListAdminNotificationsQuery, AdminNotification);

export const updateReview = defineRoute('admin', {
  method: 'patch',
  path: '/admin/reviews/{id}',
  tags,
  summary: 'Publish or hide a review (hidden ones leave GET /reviews/public); audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminReviewInput) },
  responses: { 200: jsonResponse(Envelope(AdminReview), 'The review') },
});

export const deleteReview = defineRoute('admin', {
  method: 'delete',
  path: '/admin/reviews/{id}',
  tags,
  summary: 'Delete a review for good; audited',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});
