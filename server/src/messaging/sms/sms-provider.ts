/**
 * One SMS gateway (Beem Africa, Africa's Talking, NextSMS) as the outbox drives it. A driver builds
 * the provider's documented request exactly and turns its answer into `SmsAccepted` or an
 * `SmsRejected` that says whether trying again could help; the outbox owns retries, backoff and
 * the message's record, so a driver keeps no state between calls.
 */
import type { SmsProviderName } from '@duka/shared';

/** Whose account a message goes out on: the platform's (from config) or an organisation's own. */
export interface SmsCredentials {
  provider: SmsProviderName;
  /** Beem: api_key; Africa's Talking: apiKey; NextSMS: username. */
  apiKey: string;
  /** Beem: secret_key; Africa's Talking: username; NextSMS: password. */
  secret: string;
  senderId: string;
  /** Overrides the provider's documented endpoint (tests point it at a local fake). */
  baseUrl?: string;
}

export interface SmsRequest {
  /** International digits without '+': 255XXXXXXXXX. */
  to: string;
  text: string;
  /** Our outbox id, sent where the provider carries a client reference so reports can be matched. */
  reference: string;
}

export interface SmsAccepted {
  /** The provider's id for this message, matched against its delivery reports. */
  providerMessageId: string;
  /** Segments billed (from the provider's answer where it gives one, else counted from the text). */
  segments: number;
  /** What the provider says it cost, in its currency's minor units; null when it does not say. */
  costCents: number | null;
}

export class SmsRejected extends Error {
  constructor(
    /** The provider's reason, fit to show the shop owner. */
    readonly reason: string,
    /** True when sending again cannot help (bad key, bad number, no balance, unknown sender id). */
    readonly permanent: boolean,
  ) {
    super(reason);
    this.name = 'SmsRejected';
  }
}

export type DeliveryState = 'delivered' | 'failed' | 'pending';

export interface DeliveryReport {
  providerMessageId: string;
  state: DeliveryState;
  /** The provider's own status words, kept for the record. */
  detail: string;
}

/** A message the provider accepted, as the outbox keeps it, for polling its state. */
export interface SentMessage {
  providerMessageId: string;
  to: string;
}

/** What a delivery-report callback carried, as the HTTP route received it. */
export interface CallbackInput {
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  /** The raw body: JSON or form-encoded, as the provider posts it. */
  body: string;
  contentType: string | undefined;
}

export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Throws `SmsRejected` for an answer that refuses the message; network errors and timeouts are transient. */
  send(credentials: SmsCredentials, request: SmsRequest, signal?: AbortSignal): Promise<SmsAccepted>;
  /** The reports in one callback, or null if the body is not this provider's report. */
  parseDeliveryReport(input: CallbackInput): DeliveryReport[] | null;
  /**
   * Asks the provider for the state of messages it accepted, for a gateway that offers delivery
   * reports by polling (NextSMS only so; Beem besides its callback). `to` is the recipient as sent
   * (255…), which Beem needs with its id. Messages it does not know yet are left out.
   */
  fetchDeliveryReports?(credentials: SmsCredentials, messages: SentMessage[], signal?: AbortSignal): Promise<DeliveryReport[]>;
}
