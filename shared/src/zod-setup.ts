/**
 * Error messages that read well after a field name (`phone is required`), for server and SDK
 * alike. Imported for its side effect by the package index. Their Swahili is `locales/sw.ts`.
 */
import { z } from 'zod';

const unit = (origin: string) => (origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '');

/** The English message for one issue, or undefined where zod's own English locale says it. */
export function englishIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    case 'too_small':
      return `must be at least ${issue.minimum}${unit(issue.origin)}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${unit(issue.origin)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' ? undefined : `must be a valid ${issue.format === 'uuid' ? 'UUID' : issue.format}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

z.config({ customError: englishIssueMessage });
