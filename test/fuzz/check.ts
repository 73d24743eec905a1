/**
 * What every answer must be, whatever was sent: never a 5xx, and the contract's JSON envelope
 * (`success`, `message`, `data`, `errors`, `meta`), with `errors` naming known codes when it
 * failed. A success may be something other than JSON only where the operation documents that
 * content type (CSV exports, receipts, served files).
 */
import { ErrorCode } from '@duka/shared';
import type { ApiResponse } from '../setup/test-app.js';
import type { Operation } from './requests.js';

const CODES = new Set<string>(ErrorCode.options);

export function problemsWith(op: Operation | undefined, res: ApiResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (type !== 'application/json') {
    const documented = Object.entries<any>(op?.spec.responses ?? {}).some(
      ([code, r]) => code === String(res.status) && (type in (r.content ?? {}) || (!r.content && !res.text)),
    );
    if (res.status >= 400 || !documented)
      problems.push(`answered ${type || 'no content type'} (${res.text.length} characters), not the JSON envelope`);
    return problems;
  }
  const b = res.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return [...problems, 'the body is not a JSON object'];
  if (typeof b.success !== 'boolean') problems.push('no boolean `success`');
  if (typeof b.message !== 'string') problems.push('no string `message`');
  if (!('data' in b)) problems.push('no `data`');
  if (!('meta' in b) || (b.meta !== null && typeof b.meta !== 'object')) problems.push('`meta` is neither null nor an object');
  if (b.success !== res.status < 400) problems.push(`\`success\` is ${b.success} with status ${res.status}`);
  if (res.status >= 400) {
    if (!Array.isArray(b.errors) || b.errors.length === 0) problems.push('a failure without `errors`');
    else
      for (const e of b.errors)
        if (!CODES.has(e?.code) || typeof e?.message !== 'string')
          problems.push(`an error item with an unknown code or no message: ${JSON.stringify(e)}`);
    if (b.data !== null) problems.push('a failure with `data`');
  } else if (b.errors !== null) problems.push('a success with `errors`');
  return problems;
}
