import { AddoListMeta, AddoMedicine, Envelope, ListAddoMedicinesQuery } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Pharmacy'];

export const listAddoMedicines = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/addo-list',
  tags,
  summary: 'The ADDO-permitted medicines list in force (what an ADDO may sell), paged; `meta.version` is the list version',
  request: { query: ListAddoMedicinesQuery },
  responses: { 200: jsonResponse(Envelope(z.array(AddoMedicine), AddoListMeta), 'A page of the list and its version') },
});
