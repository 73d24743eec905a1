/**
 * Fetch for the HTTP connector: a timeout, the success envelope's `data` (and `meta`) unwrapped, failures turned into a
 * DukaApiError (an answer) or a NetworkError (no answer).
 */
import { NetworkError } from '../errors.js';
import { toApiError } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpOptions {
  /** API root including the base path, e.g. `http://10.0.0.2:8080/api/v1`. */
  baseUrl: string;
  fetch?: FetchLike;
  /** Per request, ms (default 15 000). */
  timeoutMs?: number;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Aborts the request (the till closing); the timeout applies as well. */
  signal?: AbortSignal;
  /** This request's timeout instead of the client's. */
  timeoutMs?: number;
  /** Told every answer's headers and status (a refusal's too): the sync protocol reads the server's version from them. */
  onHeaders?: (headers: Headers, status: number) => void;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;

  constructor(private readonly opts: HttpOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  async request<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    return (await this.envelope<T, unknown>(method, path, o)).data;
  }

  /** The success envelope's `data` and `meta` (a paged list's page and what rides with it). */
  async envelope<T, M>(method: string, path: string, o: RequestOptions = {}): Promise<{ data: T; meta: M }> {
    const text = await this.answer(method, path, o, (res) => res.text());
    const env = parsed(text) as { data?: T; meta?: M } | null;
    return { data: env?.data as T, meta: env?.meta as M };
  }

  /** A success's body undecoded, for a reader that decodes it elsewhere (a browser till's worker). */
  bytes(method: string, path: string, o: RequestOptions = {}): Promise<ArrayBuffer> {
    return this.answer(method, path, o, (res) => res.arrayBuffer());
  }

  /** Send, and read a success's body with `read`; a refusal is read as JSON and thrown as a DukaApiError. */
  private async answer<B>(method: string, path: string, o: RequestOptions, read: (res: Response) => Promise<B>): Promise<B> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.opts.headers, accept: 'application/json' };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(o.timeoutMs ?? this.timeoutMs);
    let res: Response;
    let body: B | string;
    try {
      res = await this.fetchImpl(url.toString(), {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
      });
      body = res.ok ? await read(res) : await res.text();
    } catch (err) {
      throw new NetworkError(`${method} ${path}: ${(err as Error).message ?? 'network error'}`, err);
    }
    o.onHeaders?.(res.headers, res.status);
    if (!res.ok) throw toApiError(res.status, parsed(body as string), res.headers.get('retry-after'));
    return body as B;
  }
}

/** An answer's body: its JSON, or its text when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}
