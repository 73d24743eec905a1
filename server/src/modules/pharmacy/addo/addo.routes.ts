import { AddoListPage, ListAddoMedicinesQuery } from '@duka/shared';
import { defineRoute, jsonResponse } from '../../../lib/route.js';

const tags = ['Pharmacy'];

export const listAddoMedicines = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/addo-list',
  operationId: 'listAddoMedicines',
  description: 'What an ADDO may sell, as the platform keeps the list.',
  tags,
  summary: 'The ADDO-permitted medicines list in force (what an ADDO may sell), paged; `meta.version` is the list version',
  request: { query: ListAddoMedicinesQuery },
  responses: { 200: jsonResponse(AddoListPage, 'A page of the list and its version') },
});
