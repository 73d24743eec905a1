import { AddoListChange, AddoListPage, AddoMedicine, CreateAddoMedicineInput, Envelope, IdParam, ListAddoHistoryQuery, ListAddoMedicinesQuery, PagedEnvelope, UpdateAddoMedicineInput } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const listAddoList = defineRoute('admin', {
  method: 'get',
  path: '/admin/pharmacy/addo-list',
  tags,
  summary: 'The ADDO-permitted medicines list in force, paged; `meta.version` is the list version',
  request: { query: ListAddoMedicinesQuery },
  responses: { 200: jsonResponse(AddoListPage, 'A page of the list and its version') },
});

export const addoListHistory = defineRoute('admin', {
  method: 'get',
  path: '/admin/pharmacy/addo-list/history',
  tags,
  summary: 'Every change to the list, newest version first, with the admin who made it',
  request: { query: ListAddoHistoryQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AddoListChange), 'A page of changes') },
});

export const addAddoMedicine = defineRoute('admin', {
  method: 'post',
  path: '/admin/pharmacy/addo-list',
  tags,
  summary: 'Add a medicine to the list (409 when generic name, strength and form, ignoring case and spaces, are on it already); a new version, audited',
  request: { body: jsonBody(CreateAddoMedicineInput) },
  responses: { 201: jsonResponse(Envelope(AddoMedicine), 'The entry') },
});

export const correctAddoMedicine = defineRoute('admin', {
  method: 'patch',
  path: '/admin/pharmacy/addo-list/{id}',
  tags,
  summary: 'Correct an entry on the list; a new version, audited (a PATCH that changes nothing makes none)',
  request: { params: IdParam, body: jsonBody(UpdateAddoMedicineInput) },
  responses: { 200: jsonResponse(Envelope(AddoMedicine), 'The entry') },
});

export const removeAddoMedicine = defineRoute('admin', {
  method: 'delete',
  path: '/admin/pharmacy/addo-list/{id}',
  tags,
  summary: 'Take an entry off the list from a new version on (kept in the history); audited',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});
