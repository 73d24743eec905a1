import { BusinessType, Envelope, OutletTypeInfo, Region } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Reference data'];

export const businessTypes = defineRoute('public', {
  method: 'get',
  path: '/meta/business-types',
  tags,
  summary: 'Business types, with Swahili names',
  responses: { 200: jsonResponse(Envelope(z.array(BusinessType)), 'Business types') },
});

export const regions = defineRoute('public', {
  method: 'get',
  path: '/meta/regions',
  tags,
  summary: "Tanzania's regions and their districts (2022 census)",
  responses: { 200: jsonResponse(Envelope(z.array(Region)), 'Regions') },
});

export const districts = defineRoute('public', {
  method: 'get',
  path: '/meta/regions/{slug}/districts',
  tags,
  summary: "A region's districts",
  request: { params: z.object({ slug: z.string().min(1).max(60) }) },
  responses: { 200: jsonResponse(Envelope(z.array(z.string())), 'District names') },
});

export const outletTypes = defineRoute('public', {
  method: 'get',
  path: '/meta/outlet-types',
  tags,
  summary: 'Pharmacy outlet types',
  responses: { 200: jsonResponse(Envelope(z.array(OutletTypeInfo)), 'Outlet types') },
});
