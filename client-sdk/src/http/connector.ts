/** The default connector: the Duka REST API over fetch, with the sync protocol version on every request. */
import { NEXT_PAGE_HEADER, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import type { BootstrapResponse, PullResponse, PushRequest, PushResponse, TokenPair } from '@duka/shared';
import type { ApiAnswer, ApiRequest, BootstrapAsk, TillConnector } from '../connector.js';
import { type FetchLike, HttpClient } from './client.js';

export interface HttpConnectorOptions {
  /** API root including the base path, e.g. `http://10.0.0.2:8080/api/v1`. */
  baseUrl: string;
  fetch?: FetchLike;
  /** Per request, ms (default 15 000). */
  timeoutMs?: number;
  /** Per connectivity probe (`ping`), ms (default 3 000): a probe that waits long tells nothing. */
  probeTimeoutMs?: number;
}

export class HttpConnector implements TillConnector {
  private readonly http: HttpClient;
  private readonly probeTimeoutMs: number;
  private heard: number | undefined;
  /**
   * The server's version from a sync answer's header; none on a successful answer: a version-1
   * server, older than the header. A refusal without it says nothing: a load balancer's or proxy's
   * own 502 while a server restarts has no header either, and must not make the till think its
   * server went back to version 1 (it then refused split tender until the next sync).
   */
  private readonly hear = (headers: Headers, status: number) => {
    const said = headers.get(PROTOCOL_HEADER);
    if (said === null && (status < 200 || status >= 300)) return;
    const v = Number(said ?? 1);
    if (Number.isInteger(v) && v > 0) this.heard = v;
  };

  constructor(o: HttpConnectorOptions) {
    this.probeTimeoutMs = o.probeTimeoutMs ?? 3_000;
    // The server checks the version on push, pull and bootstrap only; sending it everywhere keeps one header set.
    this.http = new HttpClient({ ...o, headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
  }

  async refresh(refreshToken: string, signal: AbortSignal): Promise<TokenPair> {
    return this.http.request<TokenPair>('POST', '/auth/refresh', { body: { refresh_token: refreshToken }, signal });
  }
  async push(accessToken: string, batch: PushRequest, signal: AbortSignal): Promise<PushResponse> {
    return this.http.request<PushResponse>('POST', '/sync/push', { token: accessToken, body: batch, signal, onHeaders: this.hear });
  }
  async pull(
    accessToken: string,
    query: { cursor?: string; limit?: number; device_id?: string },
    signal: AbortSignal,
  ): Promise<PullResponse> {
    return this.http.request<PullResponse>('GET', '/sync/pull', { token: accessToken, query, signal, onHeaders: this.hear });
  }
  async bootstrap(accessToken: string, query: BootstrapAsk, signal: AbortSignal): Promise<BootstrapResponse> {
    return this.http.request<BootstrapResponse>('GET', '/sync/bootstrap', { token: accessToken, query, signal, onHeaders: this.hear });
  }
  async bootstrapBytes(
    accessToken: string,
    query: BootstrapAsk,
    signal: AbortSignal,
    next?: (pageToken: string) => void,
  ): Promise<ArrayBuffer> {
    const onHeaders = (headers: Headers, status: number) => {
      this.hear(headers, status);
      const token = headers.get(NEXT_PAGE_HEADER);
      if (token && status === 200) next?.(token);
    };
    return this.http.bytes('GET', '/sync/bootstrap', { token: accessToken, query, signal, onHeaders });
  }
  serverProtocol(): number | undefined {
    return this.heard;
  }
  realtimeUrl(accessToken: string): string {
    return `${this.http.baseUrl.replace(/^http/, 'ws')}/sync/ws?access_token=${encodeURIComponent(accessToken)}`;
  }
  async ping(signal: AbortSignal): Promise<void> {
    await this.http.request('GET', '/sync/ping', { signal, timeoutMs: this.probeTimeoutMs });
  }
  async send<T, M = unknown>(r: ApiRequest, signal: AbortSignal): Promise<ApiAnswer<T, M>> {
    return this.http.envelope<T, M>(r.method, r.path, { token: r.token, body: r.body, query: r.query, signal });
  }
}
