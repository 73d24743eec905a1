import { Envelope, FiscalSettings, FiscalSettingsInput, IdParam, ZReport } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Fiscal receipts'];

export const getSettings = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/fiscal',
  operationId: 'getFiscalSettings',
  description:
    "The store's TRA fiscal device: identity, registration, counters and the queue of receipts not yet acknowledged by TRA. 404 until settings are saved.",
  tags,
  summary: "A store's fiscal receipts settings and queue",
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(FiscalSettings), 'Settings (the certificate and passwords are never returned)') },
});

export const saveSettings = defineRoute('owner', {
  method: 'put',
  path: '/stores/{id}/fiscal',
  operationId: 'saveFiscalSettings',
  description:
    'Saves the taxpayer identity and the .pfx client certificate TRA issued (base64, with its password; checked that it opens). ' +
    'Once registered, the TIN, certificate serial and environment cannot change. `enabled: true` (after registration) fiscalises every paid or credit sale from then on.',
  errors: ['BUSINESS_RULE', 'NOT_FOUND'],
  tags,
  summary: "Save a store's fiscal receipts settings; switch fiscalisation on or off",
  request: {
    params: IdParam,
    body: jsonBody(FiscalSettingsInput, {
      tin: '123456789',
      vrn: '40000000K',
      cert_key: '10TZ100781',
      cert_serial: '7a 3f 11 09',
      certificate: 'MIIK…',
      certificate_password: '…',
      environment: 'test',
      enabled: false,
    }),
  },
  responses: { 200: jsonResponse(Envelope(FiscalSettings), 'Settings') },
});

export const register = defineRoute('owner', {
  method: 'post',
  path: '/stores/{id}/fiscal/register',
  operationId: 'registerFiscalDevice',
  description:
    "Registers the store's virtual fiscal device with TRA (once). TRA's answer (REGID, serial, receipt code, tax codes) is kept; a refusal is 422 with TRA's reason, no answer 503.",
  errors: ['BUSINESS_RULE', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  tags,
  summary: "Register the store's fiscal device with TRA",
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(FiscalSettings), 'Registered') },
});

export const zReports = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/fiscal/z-reports',
  operationId: 'listZReports',
  description: "The store's daily Z reports as sent to TRA, newest first (one for each day, EAT, from the first fiscal receipt).",
  tags,
  summary: "A store's Z reports",
  request: { params: IdParam, query: z.object({ limit: z.coerce.number().int().min(1).max(366).default(31) }) },
  responses: { 200: jsonResponse(Envelope(z.array(ZReport)), 'Z reports') },
});
