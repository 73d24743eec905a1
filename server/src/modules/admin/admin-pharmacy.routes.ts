import {
  AddoListChange,
  AddoListPage,
  AddoMedicine,
  CreateAddoMedicineInput,
  Envelope,
  IdParam,
  ListAddoHistoryQuery,
  ListAddoMedicinesQuery,
  PagedEnvelope,
  UpdateAddoMedicineInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const listAddoList = defineRoute('admin', {
  method: 'get',
  path: '/admin/pharmacy/addo-list',
  operationId: 'listAddoListEntries',
  description: 'The ADDO list as the platform keeps it.',
  tags,
  summary: 'The ADDO-permitted medicines list in force, paged; `meta.version` is the list version',
  request: { query: ListAddoMedicinesQuery },
  responses: { 200: jsonResponse(AddoListPage, 'A page of the list and its version') },
});

export const addoListHistory = defineRoute('admin', {
  method: 'get',
  path: '/admin/pharmacy/addo-list/history',
  operationId: 'listAddoListHistory',
  description: "The ADDO list's changes.",
  tags,
  summary: 'Every change to the list, newest version first, with the admin who made it',
  request: { query: ListAddoHistoryQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AddoListChange), 'A page of changes') },
});

export const addAddoMedicine = defineRoute('admin', {
  method: 'post',
  path: '/admin/pharmacy/addo-list',
  operationId: 'addAddoMedicine',
  description: 'Adds a medicine to the ADDO list; every ADDO till gets the new version at its next pull.',
  errors: ['DUPLICATE'],
  tags,
  summary:
    'Add a medicine to the list (409 when generic name, strength and form, ignoring case and spaces, are on it already); a new version, audited',
  request: { body: jsonBody(CreateAddoMedicineInput, { generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule' }) },
  responses: { 201: jsonResponse(Envelope(AddoMedicine), 'The entry') },
});

export const correctAddoMedicine = defineRoute('admin', {
  method: 'patch',
  path: '/admin/pharmacy/addo-list/{id}',
  operationId: 'updateAddoMedicine',
  description: 'Corrects an ADDO list entry.',
  errors: ['DUPLICATE'],
  tags,
  summary: 'Correct an entry on the list; a new version, audited (a PATCH that changes nothing makes none)',
  request: { params: IdParam, body: jsonBody(UpdateAddoMedicineInput, { strength: '500 mg' }) },
  responses: { 200: jsonResponse(Envelope(AddoMedicine), 'The entry') },
});

export const removeAddoMedicine = defineRoute('admin', {
  method: 'delete',
  path: '/admin/pharmacy/addo-list/{id}',
  operationId: 'removeAddoMedicine',
  description: 'Takes a medicine off the ADDO list.',
  tags,
  summary: 'Take an entry off the list from a new version on (kept in the history); audited',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});
