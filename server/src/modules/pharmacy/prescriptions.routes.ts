import { CorrectPrescriptionInput, Envelope, IdParam, ListPrescriptionsQuery, PagedEnvelope, PrescriptionEntry, PrescriptionsCsvQuery } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Pharmacy'];
const who = 'The active store’s register; the owner, or staff with the `pharmacy` permission.';

export const listPrescriptions = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/prescriptions',
  tags,
  summary: 'The prescription register, paged, newest dispensed first; corrected entries stay, each naming its correction',
  description: `${who} One entry per sale of a prescription-only or controlled medicine. Dates are the organisation’s calendar days, both included.`,
  request: { query: ListPrescriptionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(PrescriptionEntry), 'Entries; meta has the page') },
});

export const prescriptionsCsv = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/prescriptions.csv',
  tags,
  summary: 'The prescription register as CSV: every matching entry, oldest first, one row per medicine',
  description: `${who} Same filters as the list. Text that a spreadsheet would run as a formula starts with an apostrophe.`,
  request: { query: PrescriptionsCsvQuery },
  responses: {
    200: {
      description: 'The register file',
      headers: z.object({ 'content-disposition': z.string().meta({ description: 'attachment; filename="…"' }) }),
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

export const getPrescription = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/prescriptions/{id}',
  tags,
  summary: 'One register entry',
  description: who,
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(PrescriptionEntry), 'Entry') },
});

export const correctPrescription = defineRoute('bearer', {
  method: 'post',
  path: '/pharmacy/prescriptions/{id}/corrections',
  tags,
  summary: 'Correct an entry: a new entry with the whole corrected prescription and a reason, pointing at the one it corrects',
  description: `${who} The corrected entry is kept as it was; an entry is corrected once (409 \`INVALID_STATE\` after that: correct its correction).`,
  request: { params: IdParam, body: jsonBody(CorrectPrescriptionInput) },
  responses: { 201: jsonResponse(Envelope(PrescriptionEntry), 'The correcting entry') },
});
