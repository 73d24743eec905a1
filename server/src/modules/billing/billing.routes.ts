import {
  CheckoutInput,
  CheckoutResult,
  CreatePlanInput,
  CurrentSubscription,
  Envelope,
  IdParam,
  Invoice,
  BillingEvent,
  ListBillingEventsQuery,
  ListInvoicesQuery,
  PagedEnvelope,
  Plan,
  UpdatePlanInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Subscriptions'];
const adminTags = ['Subscriptions', 'Platform administration'];

export const listPlans = defineRoute('bearer', {
  method: 'get',
  path: '/subscriptions/plans',
  tags,
  summary: 'Plans that can be chosen, cheapest first',
  responses: { 200: jsonResponse(Envelope(z.array(Plan)), 'Active plans') },
});

export const current = defineRoute('owner', {
  method: 'get',
  path: '/subscriptions/current',
  tags,
  summary: "The organisation's plan, status, period, scheduled change and usage against every limit",
  responses: { 200: jsonResponse(Envelope(CurrentSubscription), 'The subscription') },
});

export const checkout = defineRoute('owner', {
  idempotency: 'none',
  method: 'post',
  path: '/subscriptions/checkout',
  tags,
  summary: 'Choose a plan: an upgrade is charged (prorated) by a mobile-money push and applies when paid; a downgrade waits for the period end',
  request: { body: jsonBody(CheckoutInput) },
  responses: {
    202: jsonResponse(Envelope(CheckoutResult), 'Invoice and pending payment (confirm on the phone), or the scheduled change'),
  },
});

export const invoices = defineRoute('owner', {
  method: 'get',
  path: '/subscriptions/invoices',
  tags,
  summary: "The organisation's invoices, newest first",
  request: { query: ListInvoicesQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Invoice), 'A page of invoices') },
});

export const cancel = defineRoute('owner', {
  method: 'post',
  path: '/subscriptions/cancel',
  tags,
  summary: 'Return to free at the end of the paid period (checking out again undoes it)',
  responses: { 200: jsonResponse(Envelope(CurrentSubscription), 'The subscription') },
});

export const callback = defineRoute('public', {
  method: 'post',
  path: '/subscriptions/callbacks/{provider}',
  tags,
  summary: "The mobile-money provider's payment callback, authenticated by the provider's signature or secret (401 otherwise); repeats are harmless",
  request: { params: z.object({ provider: z.string().min(1).max(40) }) },
  responses: { 200: jsonResponse(Envelope(z.object({ received: z.literal(true) })), 'Recorded') },
});

export const adminListPlans = defineRoute('admin', {
  method: 'get',
  path: '/subscriptions/admin/plans',
  tags: adminTags,
  summary: 'Every plan, active and retired',
  responses: { 200: jsonResponse(Envelope(z.array(Plan)), 'Plans') },
});

export const adminCreatePlan = defineRoute('admin', {
  method: 'post',
  path: '/subscriptions/admin/plans',
  tags: adminTags,
  summary: 'Create a plan (audited)',
  request: { body: jsonBody(CreatePlanInput) },
  responses: { 201: jsonResponse(Envelope(Plan), 'The plan') },
});

export const adminUpdatePlan = defineRoute('admin', {
  method: 'patch',
  path: '/subscriptions/admin/plans/{id}',
  tags: adminTags,
  summary: 'Change a plan (audited); a new price applies to periods that start after it',
  request: { params: IdParam, body: jsonBody(UpdatePlanInput) },
  responses: { 200: jsonResponse(Envelope(Plan), 'The plan') },
});

export const adminRetirePlan = defineRoute('admin', {
  method: 'post',
  path: '/subscriptions/admin/plans/{id}/retire',
  tags: adminTags,
  summary: 'Retire a plan (audited): no new checkouts; organisations on it stay until they change',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Plan), 'The plan') },
});

export const adminHistory = defineRoute('admin', {
  method: 'get',
  path: '/subscriptions/admin/history',
  tags: adminTags,
  summary: 'Every invoice, payment and subscription status change, newest first',
  request: { query: ListBillingEventsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(BillingEvent), 'A page of billing events') },
});
