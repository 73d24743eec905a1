/** The default connector: the Duka REST API over fetch, with the sync protocol version on every request. */
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import type {
  AddoListMeta,
  AddoMedicine,
  BootstrapResponse,
  CreatePaymentRequestInput,
  LoginInput,
  LoginResult,
  MobileNetwork,
  PaymentRequest,
  PullResponse,
  PushRequest,
  PushResponse,
  RegisterDeviceInput,
  TokenPair,
} from '@duka/shared';
import type { AddoListPage, RegisteredDevice, TillConnector } from '../connector.js';
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

  constructor(o: HttpConnectorOptions) {
    this.probeTimeoutMs = o.probeTimeoutMs ?? 3_000;
    // The server checks the version on push, pull and bootstrap only; sending it everywhere keeps one header set.
    this.http = new HttpClient({ ...o, headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
  }

  async login(input: LoginInput, signal: AbortSignal): Promise<LoginResult> {
    return this.http.request<LoginResult>('POST', '/auth/login', { body: input, signal });
  }
  async requestOtp(phone: string, signal: AbortSignal): Promise<void> {
    await this.http.request('POST', '/auth/otp/send', { body: { phone, purpose: 'login' }, signal });
  }
  async verifyOtp(phone: string, code: string, signal: AbortSignal): Promise<TokenPair> {
    return this.http.request<TokenPair>('POST', '/auth/otp/verify', { body: { phone, purpose: 'login', code }, signal });
  }
  async refresh(refreshToken: string, signal: AbortSignal): Promise<TokenPair> {
    return this.http.request<TokenPair>('POST', '/auth/refresh', { body: { refresh_token: refreshToken }, signal });
  }
  async setPassword(accessToken: string, password: string, signal: AbortSignal): Promise<void> {
    await this.http.request('PATCH', '/accounts/me', { token: accessToken, body: { password }, signal });
  }
  async logout(accessToken: string, refreshToken: string | undefined, signal: AbortSignal): Promise<void> {
    await this.http.request('POST', '/auth/logout', {
      token: accessToken,
      body: refreshToken ? { refresh_token: refreshToken } : {},
      signal,
    });
  }
  async registerDevice(accessToken: string, device: RegisterDeviceInput, signal: AbortSignal): Promise<RegisteredDevice> {
    return this.http.request<RegisteredDevice>('POST', '/sync/devices', { token: accessToken, body: device, signal });
  }
  async push(accessToken: string, batch: PushRequest, signal: AbortSignal): Promise<PushResponse> {
    return this.http.request<PushResponse>('POST', '/sync/push', { token: accessToken, body: batch, signal });
  }
  async pull(accessToken: string, query: { cursor?: string; limit?: number }, signal: AbortSignal): Promise<PullResponse> {
    return this.http.request<PullResponse>('GET', '/sync/pull', { token: accessToken, query, signal });
  }
  async bootstrap(accessToken: string, query: { page_token?: string; limit?: number }, signal: AbortSignal): Promise<BootstrapResponse> {
    return this.http.request<BootstrapResponse>('GET', '/sync/bootstrap', { token: accessToken, query, signal });
  }
  async addoList(accessToken: string, query: { page: number; page_size: number }, signal: AbortSignal): Promise<AddoListPage> {
    const { data, meta } = await this.http.envelope<AddoMedicine[], AddoListMeta>('GET', '/pharmacy/addo-list', {
      token: accessToken,
      query,
      signal,
    });
    return { items: data, version: meta.version, total_pages: meta.total_pages };
  }
  async ping(signal: AbortSignal): Promise<void> {
    await this.http.request('GET', '/sync/ping', { signal, timeoutMs: this.probeTimeoutMs });
  }
  async createPaymentRequest(accessToken: string, input: CreatePaymentRequestInput, signal: AbortSignal): Promise<PaymentRequest> {
    return this.http.request<PaymentRequest>('POST', '/payments/requests', { token: accessToken, body: input, signal });
  }
  async getPaymentRequest(accessToken: string, id: string, signal: AbortSignal): Promise<PaymentRequest> {
    return this.http.request<PaymentRequest>('GET', `/payments/requests/${encodeURIComponent(id)}`, { token: accessToken, signal });
  }
  async cancelPaymentRequest(accessToken: string, id: string, signal: AbortSignal): Promise<PaymentRequest> {
    const path = `/payments/requests/${encodeURIComponent(id)}/cancel`;
    return this.http.request<PaymentRequest>('POST', path, { token: accessToken, body: {}, signal });
  }
  async retryPaymentRequest(
    accessToken: string,
    id: string,
    input: { phone?: string; network?: MobileNetwork },
    signal: AbortSignal,
  ): Promise<PaymentRequest> {
    const path = `/payments/requests/${encodeURIComponent(id)}/retry`;
    return this.http.request<PaymentRequest>('POST', path, { token: accessToken, body: input, signal });
  }
  realtimeUrl(accessToken: string): string {
    return `${this.http.baseUrl.replace(/^http/, 'ws')}/sync/ws?access_token=${encodeURIComponent(accessToken)}`;
  }
}
