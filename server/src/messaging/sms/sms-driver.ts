/**
 * The SMS channel of the outbox. A message goes out on the account it was queued for: the
 * platform's gateway (config) for codes, passwords and platform messages, or the organisation's
 * own gateway account for its customer messages when it has set one. An account with no gateway
 * logs the message, as in development; an organisation's account that is set but refused is
 * never quietly swapped for the platform's, so the owner sees the gateway's reason.
 */
import type { Logger } from 'pino';
import type { OutboxRow } from '../../db/tables/outbox.table.js';
import { type Delivered, logDriver, type MessageDriver } from '../drivers.js';
import { type SmsCredentials, type SmsProvider, SmsRejected } from './sms-provider.js';
import type { SmsProviderName } from '@duka/shared';

export interface SmsDriverOptions {
  /** The platform's gateway account; null logs platform messages. */
  platform: SmsCredentials | null;
  providers: Record<SmsProviderName, SmsProvider>;
  /** The organisation's own account, or null when it has none (any more). */
  organisationAccount(orgId: string): Promise<SmsCredentials | null>;
  log: Logger;
  showBodies: boolean;
  timeoutMs: number;
}

export function smsDriver(opts: SmsDriverOptions): MessageDriver {
  const logged = logDriver(opts.log, opts.showBodies);
  return {
    kind: 'sms',
    async deliver(msg: OutboxRow): Promise<Delivered> {
      let credentials = opts.platform;
      if (msg.account === 'organisation' && msg.org_id) {
        credentials = await opts.organisationAccount(msg.org_id);
        if (!credentials) throw new SmsRejected("the organisation's SMS account was removed before this message was sent", true);
      }
      if (!credentials) return logged.deliver(msg);
      const accepted = await opts.providers[credentials.provider].send(
        credentials,
        { to: msg.recipient.replace(/^\+/, ''), text: msg.body, reference: msg.id },
        AbortSignal.timeout(opts.timeoutMs),
      );
      return { left: true, provider: credentials.provider, ...accepted };
    },
  };
}
