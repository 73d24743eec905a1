import { Envelope, SmsAccount, SmsProviderName, SmsReportsAccepted } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['SMS'];

export const account = defineRoute('owner', {
  method: 'get',
  path: '/sms/account',
  operationId: 'getSmsAccount',
  description: "The organisation's SMS account, its delivery-report URL and this month's messages.",
  errors: ['NOT_FOUND'],
  tags,
  summary: "Which SMS account the organisation's customer messages use, where its gateway posts delivery reports, and this month's usage",
  responses: { 200: jsonResponse(Envelope(SmsAccount), 'The SMS account') },
});

export const reports = defineRoute('public', {
  method: 'post',
  path: '/sms/reports/{provider}/{token}',
  operationId: 'receiveSmsDeliveryReport',
  tags,
  summary: "A gateway's delivery reports (the URL from GET /sms/account, or the operator's for the platform account)",
  description:
    "Beem posts JSON, Africa's Talking posts a form. The token in the path is the only credential these gateways allow, so every gateway account has its own (a shop's is derived from its organisation and its gateway key, and changes with the key); a report changes only messages sent on that account, and a wrong token answers 404.",
  request: { params: z.object({ provider: SmsProviderName, token: z.string().min(16).max(100) }) },
  responses: { 200: jsonResponse(Envelope(SmsReportsAccepted), 'Reports applied') },
});
