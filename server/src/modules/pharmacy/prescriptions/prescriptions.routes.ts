import {
  CorrectPrescriptionInput,
  Envelope,
  IdParam,
  ListPrescriptionsQuery,
  PagedEnvelope,
  PrescriptionEntry,
  PrescriptionsCsvQuery,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Pharmacy'];
const needs = { permission: 'pharmacy' } as const;

export const listPrescriptions = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/prescriptions',
  operationId: 'listPrescriptions',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The prescription register, paged, newest dispensed first; corrected entries stay, each naming its correction',
  description:
    'The active store’s register: one entry per sale of a prescription-only or controlled medicine. Dates are the organisation’s calendar days, both included.',
  request: { query: ListPrescriptionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(PrescriptionEntry), 'Entries; meta has the page') },
});

export const prescriptionsCsv = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/prescriptions.csv',
  operationId: 'exportPrescriptionsCsv',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'The prescription register as CSV: every matching entry, oldest first, one row per medicine',
  description: 'Same filters as the list. Text that a spreadsheet would run as a formula starts with an apostrophe.',
  request: { query: PrescriptionsCsvQuery },
  responses: {
    200: {
      description: 'The register file',
      headers: { 'Content-Disposition': { required: true, description: 'attachment; filename="…"', schema: { type: 'string' as const } } },
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

export const getPrescription = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/prescriptions/{id}',
  operationId: 'getPrescription',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'One register entry',
  description: 'One entry of the active store’s register.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(PrescriptionEntry), 'Entry') },
});

export const correctPrescription = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/pharmacy/prescriptions/{id}/corrections',
  operationId: 'correctPrescription',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Correct an entry: a new entry with the whole corrected prescription and a reason, pointing at the one it corrects',
  description:
    'The corrected entry is kept as it was; an entry is corrected once (409 `INVALID_STATE` after that: correct its correction).',
  request: {
    params: IdParam,
    body: jsonBody(CorrectPrescriptionInput, {
      prescription: {
        patient_name: 'Neema Juma',
        patient_age: 34,
        patient_sex: 'female',
        prescriber_name: 'Dr. Baraka Mollel',
        prescriber_registration_number: 'MCT-12345',
        facility: 'Mwananyamala Hospital',
        date_written: '2026-11-20',
      },
      reason: 'patient age written wrongly',
    }),
  },
  responses: { 201: jsonResponse(Envelope(PrescriptionEntry), 'The correcting entry') },
});
