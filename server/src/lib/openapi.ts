/**
 * What the OpenAPI document says about every operation without each route repeating it: the
 * error answers a route can give (derived from its access level, method and inputs, plus the
 * codes its verb sends, which the route names), the headers of every answer, and the tags.
 */
import { type ErrorCode, ERROR_STATUS, ErrorBody } from '@duka/shared';
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';

type Responses = RouteConfig['responses'];
type Response = Responses[string];
type Header = { $ref: string };

/** What each code means to a caller, as the error answers' descriptions list them. */
const MEANS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'a field is missing or malformed; `errors` names each one as a dot path',
  UNAUTHENTICATED: 'no valid access token (or credentials)',
  INVALID_CREDENTIALS: 'the credentials or code are wrong',
  TOKEN_EXPIRED: 'the access token has expired: refresh it',
  SESSION_EXPIRED: 'the refresh token has expired or its session ended: sign in again',
  LINK_EXPIRED: 'the signed file link has expired: ask for a new one (GET /uploads/link)',
  PLAN_LIMIT: "beyond what the organisation's plan allows; `errors[0].field` names the limit",
  FORBIDDEN: 'not allowed for this role or permission; the message names it',
  PASSWORD_CHANGE_REQUIRED: 'signed in with a temporary password: set a new one (PATCH /accounts/me) first',
  DEVICE_RETIRED: 'this till was retired by the owner (back office): it may no longer push, pull or register',
  NOT_FOUND: 'not found, or belongs to another organisation',
  METHOD_NOT_ALLOWED: 'the path does not take this method (header Allow lists those it takes)',
  CONFLICT: 'conflicts with another record',
  DUPLICATE: 'a value that must be unique is already in use; `errors[0].field` names it',
  INSUFFICIENT_STOCK: 'not enough stock; `meta.available` says how much there is',
  INVALID_STATE: "not possible in the record's current state (or with no active store)",
  IDEMPOTENCY_IN_FLIGHT: 'a request with this Idempotency-Key is still being answered; retry shortly',
  EXPIRED: 'its time has passed (a proposal not confirmed in time)',
  PAYLOAD_TOO_LARGE: 'the request body is larger than the server takes',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not of a type this route takes',
  BUSINESS_RULE: 'breaks a business rule; the message says which',
  CREDIT_LIMIT_EXCEEDED: 'the sale would take the customer past their credit limit',
  OVERPAYMENT: 'the payment is more than is owed',
  IDEMPOTENCY_MISMATCH: 'this Idempotency-Key was used with another body',
  AI_CREDITS_EXHAUSTED: 'the organisation has no AI credits left',
  PRESCRIPTION_REQUIRED: 'a prescription-only medicine is sold without a prescription',
  NOT_PERMITTED_FOR_ADDO: 'an ADDO may not sell this medicine',
  ACCOUNT_LOCKED: 'too many failed attempts; wait for Retry-After',
  UNSUPPORTED_PROTOCOL: 'the till speaks a sync protocol version this server does not serve',
  RATE_LIMITED: 'too many requests; wait for Retry-After',
  INTERNAL: 'an unexpected error; `meta.request_id` identifies it in the logs',
  SERVICE_UNAVAILABLE: 'a service it depends on is unavailable; send it again after Retry-After',
};

/** Response headers, declared once under components.headers. */
export const HEADERS = {
  'X-Request-Id': {
    required: true,
    description: "Identifies the request in the server logs; echoes the request's own `X-Request-Id` when it sent one",
    schema: { type: 'string' },
  },
  'Retry-After': { required: true, description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Limit': {
    description: 'Requests allowed per window to the signed-in user (absent when the token was refused)',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key and body',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;
type HeaderName = keyof typeof HEADERS;
const ref = (name: HeaderName): Header => ({ $ref: `#/components/headers/${name}` });

/** The document's tags, one per area, in the order the reference lists them. */
export const TAGS = [
  {
    name: 'Authentication',
    description: 'Register, sign in (password, SMS code, admin MFA), refresh and sign out; password reset. Public, rate-limited.',
  },
  { name: 'Accounts', description: "The signed-in user's profile, organisation, active store and users." },
  { name: 'Accounts: authenticator MFA', description: 'Enrol and manage an authenticator (TOTP) for a platform administrator.' },
  { name: 'Reference data', description: 'Business types, regions and districts of Tanzania, outlet types. Public.' },
  { name: 'Inventory', description: "Categories, products, the active store's stock and its adjustments." },
  { name: 'Stores', description: "The organisation's stores (owner)." },
  { name: 'Staff', description: 'Staff accounts, their stores, shifts and permissions (owner).' },
  { name: 'Customers', description: 'Customers and what they owe.' },
  { name: 'Credits', description: 'Sales on credit: tabs, payments (oldest first), reminders, write-offs.' },
  { name: 'Suppliers', description: 'Suppliers, deliveries received and payments made to them.' },
  { name: 'Expenses', description: "The active store's expenses." },
  { name: 'Point of sale', description: "Sales, refunds, voids, receipts and the day's summary." },
  {
    name: 'Pharmacy',
    description: 'Medicine batches (FEFO), expiry, quarantine, recalls, prescriptions and the registers a pharmacy keeps.',
  },
  { name: 'Notifications', description: "The active store's notifications." },
  { name: 'Notebook', description: 'Shared notes of the organisation.' },
  { name: 'Uploads', description: 'Files: product images, logos, receipts.' },
  { name: 'Reviews', description: 'Reviews of Duka by its users.' },
  { name: 'Sync', description: 'The offline till: pull changes, push queued mutations, conflicts, the realtime channel.' },
  { name: 'Reports', description: 'Reports generated now or on a schedule, and their exports.' },
  { name: 'Analytics', description: 'Figures over local dates: revenue, trend, payment mix, products, customers, cash flow (owner).' },
  { name: 'AI assistant', description: 'Questions to the shop assistant, answered through the AI gateway; each costs an AI credit.' },
  {
    name: 'AI assistant: companion agent',
    description:
      "The companion agent's memory, kept here so that any agent instance answers: its conversations and the changes it proposed, waiting for confirmation. The agent calls these with its user's own token.",
  },
  { name: 'SMS', description: 'The SMS account and delivery reports from SMS providers.' },
  { name: 'Subscriptions', description: "Plans, checkout, invoices and payment providers' callbacks." },
  { name: 'Payments', description: "A shop's own mobile-money collection accounts and the payments their providers report." },
  {
    name: 'Fiscal receipts',
    description: "TRA VFD fiscal receipts: a store's settings, its registration with TRA, the queue and the daily Z reports.",
  },
  { name: 'Platform administration', description: "The platform administrators' view of every organisation (admin sign-in with MFA)." },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

export function registerDocumentComponents(api: OpenAPIHono<any>): void {
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const [name, header] of Object.entries(HEADERS)) api.openAPIRegistry.registerComponent('headers', name, header as never);
}

export interface Documented {
  secured: boolean;
  method: string;
  request?: RouteConfig['request'];
  /** Codes the route's verb sends beyond those derived here. */
  errors?: readonly ErrorCode[];
}

/**
 * The codes a route can answer: every route may fail unexpectedly, or find its database busy (503); any input, the URL included, can be invalid; a
 * path parameter names something that may not exist; any body but a GET's counts against the size
 * limit; a body must be of the declared type; a signed-in route checks the token, the role and the
 * per-user rate limit. What its verb adds, the route lists in `errors`.
 */
export function errorCodes(route: Documented): Set<ErrorCode> {
  const codes = new Set<ErrorCode>(['INTERNAL', 'SERVICE_UNAVAILABLE', ...(route.errors ?? [])]);
  const r = route.request ?? {};
  // Even a route that takes no input is refused a URL it cannot be given (a NUL character, request-guards.ts).
  codes.add('VALIDATION_ERROR');
  if (r.params) codes.add('NOT_FOUND');
  if (route.method !== 'get') codes.add('PAYLOAD_TOO_LARGE');
  if (r.body) codes.add('UNSUPPORTED_MEDIA_TYPE');
  if (route.secured) for (const code of ['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'FORBIDDEN', 'RATE_LIMITED'] as const) codes.add(code);
  return codes;
}

/** An error answer: the error envelope, described by its codes and what each means. */
export const errorAnswer = (codes: readonly ErrorCode[]) => ({
  description: codes.map((code) => `\`${code}\`: ${MEANS[code]}`).join('; '),
  content: { 'application/json': { schema: ErrorBody } },
});

/** The route's own responses and its error answers, each with the headers it carries. */
export function documentResponses(route: Documented, responses: Responses): Responses {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(route)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const errors: Responses = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) errors[status] = errorAnswer(codes);
  const out: Responses = {};
  for (const [status, response] of Object.entries({ ...errors, ...responses })) out[status] = withHeaders(route, Number(status), response);
  return out;
}

function withHeaders(route: Documented, status: number, response: Response): Response {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === 429 || status === 423 || status === 503) names.push('Retry-After');
  if (route.secured && status !== 401) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (route.request?.headers && status >= 200 && status < 300 && isIdempotent(route.request.headers)) names.push('Idempotent-Replayed');
  const headers = Object.fromEntries(names.map((name) => [name, ref(name)]));
  return { ...response, headers: { ...headers, ...((response as { headers?: object }).headers ?? {}) } } as Response;
}

const isIdempotent = (headers: unknown): boolean =>
  typeof headers === 'object' && headers !== null && 'shape' in headers && 'idempotency-key' in (headers as { shape: object }).shape;
