/** JSON-lines logging with pino. Secrets never reach it: tokens, passwords and keys are redacted by path. */
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['*.password', '*.new_password', '*.token', '*.refresh_token', '*.access_token', '*.authorization', '*.code', '*.otp'],
      censor: '[redacted]',
    },
  });
}
