/** An error as one line for the cashier: the till's and the server's messages are already written for people. */
import { t } from '../i18n.js';

export function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return t('error.generic', { message });
}
