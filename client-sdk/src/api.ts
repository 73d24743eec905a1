/**
 * `TillApi`: every endpoint the till calls besides the sync protocol, typed, over the connector's
 * one generic `send`. A new endpoint is a method here; the connector (connector.ts), which hosts
 * implement, stays the same.
 */
import type {
  AddoListMeta,
  AddoMedicine,
  CreatePaymentRequestInput,
  LoginInput,
  LoginResult,
  MobileNetwork,
  PaymentRequest,
  RegisterDeviceInput,
  StockTake,
  StockTakeSummary,
  TokenPair,
} from '@duka/shared';
import type { ApiRequest, RegisteredDevice, TillConnector } from './connector.js';

/** A page of the ADDO-permitted list and the list's version when the page was read. */
export interface AddoListPage {
  items: AddoMedicine[];
  version: number;
  total_pages: number;
}

const paymentRequest = (id: string, action = '') => `/payments/requests/${encodeURIComponent(id)}${action}`;

export class TillApi {
  constructor(private readonly connector: TillConnector) {}

  /** Password sign-in. */
  login(input: LoginInput, signal: AbortSignal): Promise<LoginResult> {
    return this.data({ method: 'POST', path: '/auth/login', body: input }, signal);
  }
  /** Text a one-time sign-in code. */
  async requestOtp(phone: string, signal: AbortSignal): Promise<void> {
    await this.data({ method: 'POST', path: '/auth/otp/send', body: { phone, purpose: 'login' } }, signal);
  }
  /** Sign in with the texted code. */
  verifyOtp(phone: string, code: string, signal: AbortSignal): Promise<TokenPair> {
    return this.data({ method: 'POST', path: '/auth/otp/verify', body: { phone, purpose: 'login', code } }, signal);
  }
  /** Set the signed-in user's new password, as a session signed in with a temporary password must before anything else. */
  async setPassword(token: string, password: string, signal: AbortSignal): Promise<void> {
    await this.data({ method: 'PATCH', path: '/accounts/me', token, body: { password } }, signal);
  }
  /** End the sign-in on the server. */
  async logout(token: string, refreshToken: string | undefined, signal: AbortSignal): Promise<void> {
    await this.data({ method: 'POST', path: '/auth/logout', token, body: refreshToken ? { refresh_token: refreshToken } : {} }, signal);
  }
  /** Register this device (idempotent): its till code and the server's last applied seq. */
  registerDevice(token: string, device: RegisterDeviceInput, signal: AbortSignal): Promise<RegisteredDevice> {
    return this.data({ method: 'POST', path: '/sync/devices', token, body: device }, signal);
  }
  /** A page (from 1) of the platform's ADDO-permitted list, which an ADDO till keeps a copy of. */
  async addoList(token: string, query: { page: number; page_size: number }, signal: AbortSignal): Promise<AddoListPage> {
    const { data, meta } = await this.connector.send<AddoMedicine[], AddoListMeta>(
      { method: 'GET', path: '/pharmacy/addo-list', token, query },
      signal,
    );
    return { items: data, version: meta.version, total_pages: meta.total_pages };
  }
  /** Ask a customer's phone for a sale's payment (the same sale id answers the first request again). */
  createPaymentRequest(token: string, input: CreatePaymentRequestInput, signal: AbortSignal): Promise<PaymentRequest> {
    return this.data({ method: 'POST', path: '/payments/requests', token, body: input }, signal);
  }
  getPaymentRequest(token: string, id: string, signal: AbortSignal): Promise<PaymentRequest> {
    return this.data({ method: 'GET', path: paymentRequest(id), token }, signal);
  }
  cancelPaymentRequest(token: string, id: string, signal: AbortSignal): Promise<PaymentRequest> {
    return this.data({ method: 'POST', path: paymentRequest(id, '/cancel'), token, body: {} }, signal);
  }
  retryPaymentRequest(
    token: string,
    id: string,
    input: { phone?: string; network?: MobileNetwork },
    signal: AbortSignal,
  ): Promise<PaymentRequest> {
    return this.data({ method: 'POST', path: paymentRequest(id, '/retry'), token, body: input }, signal);
  }
  /** The active store's stock-takes (issue 52), newest first. */
  stockTakes(token: string, query: { status?: StockTakeSummary['status'] }, signal: AbortSignal): Promise<StockTakeSummary[]> {
    return this.data({ method: 'GET', path: '/inventory/stock-takes', token, query: { ...query, limit: 200 } }, signal);
  }
  /** One stock-take with its lines (the products it counts). */
  stockTake(token: string, id: string, signal: AbortSignal): Promise<StockTake> {
    return this.data({ method: 'GET', path: `/inventory/stock-takes/${encodeURIComponent(id)}`, token }, signal);
  }

  private async data<T>(request: ApiRequest, signal: AbortSignal): Promise<T> {
    return (await this.connector.send<T>(request, signal)).data;
  }
}
