/**
 * The language of an error answer (issue 54): Swahili when the request asks for it with
 * `Accept-Language: sw` (or `sw-TZ`, preferred over English by its q-value), English otherwise.
 * Only what the API says in its own generic words is translated: zod's messages for the common
 * issue kinds (by code and params, after the parse: the parse itself is the same for every request)
 * and the envelope's `message` by error code. What a rule of ours wrote (a refine, a ServiceError)
 * stays as written, in `errors[].message`.
 */
import { type ErrorCode, englishIssueMessage, swahiliIssueMessage } from '@duka/shared';
import type { Context } from 'hono';
import { z } from 'zod';

export type Language = 'en' | 'sw';

/** The language an `Accept-Language` header prefers among the two the API speaks; English by default. */
export function preferredLanguage(header: string | null | undefined): Language {
  let best: Language = 'en';
  let bestQ = 0;
  for (const part of (header ?? '').split(',')) {
    const [tag = '', ...params] = part.split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const primary = tag.trim().toLowerCase().split('-')[0];
    if ((primary === 'sw' || primary === 'en') && weight > bestQ) [best, bestQ] = [primary, weight];
  }
  return best;
}

export const requestLanguage = (c: Context): Language => preferredLanguage(c.req.header('accept-language'));

const english = z.locales.en().localeError;

/**
 * One issue's message in `language`: in Swahili when its message is the one zod-setup.ts (or zod's
 * English locale) gives that code and those params; a message a schema wrote itself is kept. An
 * issue keeps no input after the parse, and only `invalid_type` reads it (missing or wrong type):
 * both readings are tried.
 */
export function issueMessage(issue: z.core.$ZodIssue, language: Language): string {
  if (language === 'en') return issue.message;
  const inputs = issue.code === 'invalid_type' ? [undefined, null] : [undefined];
  for (const input of inputs) {
    const raw = { ...issue, input } as z.core.$ZodRawIssue;
    const said = englishIssueMessage(raw) ?? english(raw);
    if ((typeof said === 'string' ? said : said?.message) === issue.message) return swahiliIssueMessage(raw);
  }
  return issue.message;
}

/** The envelope's `message` in Swahili, by code: every code of the catalogue has one. */
export const SWAHILI_ERROR_MESSAGE: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Ombi lina makosa; angalia sehemu zilizotajwa',
  UNAUTHENTICATED: 'Unahitaji kuingia kwanza',
  INVALID_CREDENTIALS: 'Namba ya simu, barua pepe, nenosiri au msimbo si sahihi',
  TOKEN_EXPIRED: 'Muda wa tokeni ya kuingia umeisha; ifanye upya',
  SESSION_EXPIRED: 'Muda wa kuingia umeisha; ingia tena',
  LINK_EXPIRED: 'Muda wa kiungo hiki umeisha; omba kipya',
  PLAN_LIMIT: 'Umefikia kikomo cha mpango wako; chagua mpango mkubwa zaidi',
  FORBIDDEN: 'Huna ruhusa ya kufanya hili',
  PASSWORD_CHANGE_REQUIRED: 'Weka nenosiri lako jipya kwanza',
  DEVICE_RETIRED: 'Kifaa hiki kimeondolewa na mwenye duka',
  NOT_FOUND: 'Haikupatikana',
  METHOD_NOT_ALLOWED: 'Anwani hii haipokei ombi la aina hii',
  CONFLICT: 'Hili linagongana na kilichopo tayari',
  DUPLICATE: 'Thamani hii inatumika tayari',
  INSUFFICIENT_STOCK: 'Hakuna bidhaa za kutosha stoo',
  INVALID_STATE: 'Haiwezekani katika hali ilivyo sasa',
  IDEMPOTENCY_IN_FLIGHT: 'Ombi lenye ufunguo huu bado linashughulikiwa; jaribu tena baada ya muda mfupi',
  EXPIRED: 'Muda wake umepita',
  PAYLOAD_TOO_LARGE: 'Ombi ni kubwa mno',
  UNSUPPORTED_MEDIA_TYPE: 'Tuma mwili wa ombi kama application/json',
  BUSINESS_RULE: 'Hili haliruhusiwi na kanuni za biashara',
  CREDIT_LIMIT_EXCEEDED: 'Hili lingezidi kikomo cha mkopo cha mteja',
  OVERPAYMENT: 'Malipo yanazidi kiasi kinachodaiwa',
  IDEMPOTENCY_MISMATCH: 'Ufunguo huu (Idempotency-Key) ulitumika kwa ombi tofauti',
  AI_CREDITS_EXHAUSTED: 'Salio la AI limekwisha',
  PRESCRIPTION_REQUIRED: 'Dawa hii inahitaji cheti cha daktari',
  NOT_PERMITTED_FOR_ADDO: 'Dawa hii hairuhusiwi kuuzwa na duka la dawa muhimu (ADDO)',
  ACCOUNT_LOCKED: 'Akaunti imefungwa kwa muda; jaribu tena baadaye',
  UNSUPPORTED_PROTOCOL: 'Toleo hili la programu halitumiki; sasisha programu',
  RATE_LIMITED: 'Maombi mengi mno; subiri kidogo kisha jaribu tena',
  INTERNAL: 'Hitilafu ya ndani ya seva; taja namba ya ombi (request id) unaporipoti',
  SERVICE_UNAVAILABLE: 'Huduma haipatikani kwa sasa; jaribu tena baadaye',
};
