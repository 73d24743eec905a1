import { ControlledRegister, ControlledRegisterQuery, DisposalRegister, DisposalRegisterQuery, Envelope } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../../lib/route.js';

const tags = ['Pharmacy'];
const needs = { permission: 'pharmacy' } as const;
const csvFile = (description: string) => ({
  description,
  headers: { 'Content-Disposition': { required: true, description: 'attachment; filename="…"', schema: { type: 'string' as const } } },
  content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
});
const controlledDescription =
  "Every line of the product's batch ledger in the active store in the period (local days, inclusive; default this month so far), time then id order, with the stock balance after it from the opening balance. `qty` is the change of stock; units moved outside stock (a refund into quarantine, a disposal) are listed with qty 0. 422 when the product is not `controlled`.";
const disposalDescription =
  'Every disposal in the active store in the period (local days, inclusive; default this month so far), with reason, method, witness and the value at cost.';

export const controlledRegister = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/registers/controlled',
  operationId: 'getControlledDrugRegister',
  errors: ['BUSINESS_RULE', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The controlled-drug register of a product',
  description: controlledDescription,
  request: { query: ControlledRegisterQuery },
  responses: { 200: jsonResponse(Envelope(ControlledRegister), 'The register') },
});

export const controlledRegisterCsv = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/registers/controlled.csv',
  operationId: 'exportControlledDrugRegisterCsv',
  errors: ['BUSINESS_RULE', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The controlled-drug register of a product as CSV, opening balance first',
  description: controlledDescription,
  request: { query: ControlledRegisterQuery },
  responses: { 200: csvFile('The register as CSV') },
});

export const disposalRegister = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/registers/disposals',
  operationId: 'getDisposalRegister',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The disposal register',
  description: disposalDescription,
  request: { query: DisposalRegisterQuery },
  responses: { 200: jsonResponse(Envelope(DisposalRegister), 'The register') },
});

export const disposalRegisterCsv = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/registers/disposals.csv',
  operationId: 'exportDisposalRegisterCsv',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The disposal register as CSV',
  description: disposalDescription,
  request: { query: DisposalRegisterQuery },
  responses: { 200: csvFile('The register as CSV') },
});
