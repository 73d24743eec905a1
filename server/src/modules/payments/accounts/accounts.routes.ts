/** The owner's collection accounts: the shop's own mobile-money accounts its customers pay into. */
import { CollectionAccount, CreateCollectionAccountInput, Envelope, IdParam, UpdateCollectionAccountInput } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Payments'];
const one = jsonResponse(Envelope(CollectionAccount), 'The collection account (no secret: a hint and the callback URL)');

export const listAccounts = defineRoute('owner', {
  method: 'get',
  path: '/payments/collection-accounts',
  operationId: 'listCollectionAccounts',
  description: "The organisation's own mobile-money collection accounts, active and not, oldest first. Credentials are never answered.",
  tags,
  summary: 'Collection accounts',
  responses: { 200: jsonResponse(Envelope(z.array(CollectionAccount)), 'Collection accounts') },
});

export const createAccount = defineRoute('owner', {
  method: 'post',
  path: '/payments/collection-accounts',
  operationId: 'createCollectionAccount',
  description:
    "Adds an account the shop's customers pay into, with the provider's credentials (sealed, never answered). `store_id` null is every store's; a store's own account wins. One active account per store and one organisation-wide: a second is 409. Audited. Paste the answer's `callback_url` into the provider's dashboard.",
  errors: ['CONFLICT', 'NOT_FOUND'],
  tags,
  summary: 'Add a collection account (audited)',
  request: {
    body: jsonBody(CreateCollectionAccountInput, {
      provider: 'selcom',
      label: 'Selcom Kariakoo',
      credentials: { apiKey: 'SELCOM-KEY-1234', apiSecret: 'secret', vendor: 'TILL61000000' },
    }),
  },
  responses: { 201: one },
});

export const getAccount = defineRoute('owner', {
  method: 'get',
  path: '/payments/collection-accounts/{id}',
  operationId: 'getCollectionAccount',
  description: "One of the organisation's collection accounts; another organisation's id is 404.",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'A collection account',
  request: { params: IdParam },
  responses: { 200: one },
});

export const updateAccount = defineRoute('owner', {
  method: 'patch',
  path: '/payments/collection-accounts/{id}',
  operationId: 'updateCollectionAccount',
  description:
    "Changes the label, test mode, active flag or the whole credential object (checked against the account's provider). Reactivating while another account is active for the same store is 409. Audited, without the credentials.",
  errors: ['CONFLICT', 'NOT_FOUND'],
  tags,
  summary: 'Change a collection account (audited)',
  request: { params: IdParam, body: jsonBody(UpdateCollectionAccountInput, { label: 'M-Pesa Lipa Kariakoo', test_mode: false }) },
  responses: { 200: one },
});

export const deactivateAccount = defineRoute('owner', {
  method: 'delete',
  path: '/payments/collection-accounts/{id}',
  operationId: 'deactivateCollectionAccount',
  description: 'Deactivates the account: its callback URL answers 404 from now on; the payments it received are kept. Audited.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Deactivate a collection account (audited)',
  request: { params: IdParam },
  responses: { 200: one },
});

export const rotateCallback = defineRoute('owner', {
  method: 'post',
  path: '/payments/collection-accounts/{id}/rotate-callback',
  operationId: 'rotateCollectionCallback',
  description:
    "A new secret in the account's callback URL: the old URL answers 404 at once, so paste the new one into the provider's dashboard. Audited.",
  errors: ['NOT_FOUND'],
  idempotency: 'none',
  tags,
  summary: 'Rotate the callback URL (audited)',
  request: { params: IdParam },
  responses: { 200: one },
});
