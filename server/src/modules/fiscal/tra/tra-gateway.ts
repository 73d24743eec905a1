/**
 * What the fiscal queue needs of TRA, as one narrow interface (the HTTP driver in tra-vfd.ts; the
 * tests run it against a local fake TRA). Every call either returns TRA's answer or throws
 * TraUnreachable (no answer: network, timeout, 5xx), which the queue retries with the same bytes.
 */
export class TraUnreachable extends Error {}

/** TRA answered 401: the token is stale; fetch another and try again. */
export class TraUnauthorized extends Error {}

export interface TraEndpoint {
  /** The API base of the store's environment. */
  baseUrl: string;
  certSerial: string;
}

export interface Registration {
  ackCode: string;
  ackMessage: string;
  /** Every field of EFDMSRESP as TRA sent it (REGID, SERIAL, UIN, RECEIPTCODE, GC, USERNAME, PASSWORD, TAXCODES, …). */
  fields: Record<string, unknown>;
}

export interface Token {
  accessToken: string;
  expiresInSeconds: number;
}

export interface Acknowledgement {
  ackCode: string;
  ackMessage: string;
}

export interface TraGateway {
  register(endpoint: TraEndpoint, body: string): Promise<Registration>;
  /** Throws TraRefused when TRA refuses the credentials. */
  token(endpoint: TraEndpoint, username: string, password: string): Promise<Token>;
  postReceipt(endpoint: TraEndpoint, token: string, body: string): Promise<Acknowledgement>;
  postZReport(endpoint: TraEndpoint, token: string, body: string): Promise<Acknowledgement>;
}

/** TRA refused a registration or a token request: the owner has to fix something. */
export class TraRefused extends Error {}
