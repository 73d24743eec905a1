/** The SMS side of the server, built once from config: the outbox's SMS driver and the report poller. */
import type { Logger } from 'pino';
import type { DbHandle } from '../../db/handle.js';
import type { Config } from '../../env.js';
import type { Clock } from '../../lib/clock.js';
import type { Keys } from '../../lib/crypto.js';
import type { Lease } from '../../lib/leases.js';
import type { MessageDriver } from '../drivers.js';
import { organisationSmsAccounts, platformSmsAccount } from './accounts.js';
import { pollDeliveryReports } from './delivery-reports.js';
import { smsProviders } from './index.js';
import { smsDriver } from './sms-driver.js';

export interface SmsGateway {
  driver: MessageDriver;
  /** Ask polling-only gateways for delivery reports (on the server's timer, under its job lease). */
  pollReports(lease?: Lease): Promise<number>;
}

export function smsGateway(
  config: Config,
  { db, transact }: Pick<DbHandle, 'db' | 'transact'>,
  keys: Keys,
  clock: Clock,
  log: Logger,
  showBodies: boolean,
): SmsGateway {
  const platform = platformSmsAccount(config);
  const organisationAccount = organisationSmsAccounts(db, keys, config);
  const timeoutMs = config.SMS_TIMEOUT_MS;
  return {
    driver: smsDriver({ platform, providers: smsProviders, organisationAccount, log, showBodies, timeoutMs }),
    pollReports: (lease) =>
      pollDeliveryReports({ db, transact, lease, clock, providers: smsProviders, platform, organisationAccount, timeoutMs }),
  };
}
