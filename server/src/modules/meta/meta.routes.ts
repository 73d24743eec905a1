import { BusinessType, Envelope, OutletTypeEntry, Region } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Reference data'];

export const businessTypes = defineRoute('public', {
  method: 'get',
  path: '/meta/business-types',
  operationId: 'listBusinessTypes',
  description: 'The business types an organisation can be, in English and Swahili.',
  tags,
  summary: 'Business types, with Swahili names',
  responses: { 200: jsonResponse(Envelope(z.array(BusinessType)), 'Business types') },
});

export const regions = defineRoute('public', {
  method: 'get',
  path: '/meta/regions',
  operationId: 'listRegions',
  description: "Tanzania's regions, each with its districts, for address forms.",
  tags,
  summary: "Tanzania's regions and their districts (2022 census)",
  responses: { 200: jsonResponse(Envelope(z.array(Region)), 'Regions') },
});

export const districts = defineRoute('public', {
  method: 'get',
  path: '/meta/regions/{slug}/districts',
  operationId: 'listDistricts',
  description: 'The districts of one region.',
  tags,
  summary: "A region's districts",
  request: { params: z.object({ slug: z.string().min(1).max(60) }) },
  responses: { 200: jsonResponse(Envelope(z.array(z.string())), 'District names') },
});

export const outletTypes = defineRoute('public', {
  method: 'get',
  path: '/meta/outlet-types',
  operationId: 'listOutletTypes',
  description: 'The kinds of medicine outlet a store can be (pharmacy, ADDO), with what each may sell.',
  tags,
  summary: 'Pharmacy outlet types',
  responses: { 200: jsonResponse(Envelope(z.array(OutletTypeEntry)), 'Outlet types') },
});
