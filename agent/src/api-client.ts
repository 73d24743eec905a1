/**
 * The agent's only way to the shop's data: the Duka API over HTTP, with the caller's own bearer
 * token and nothing else, so the API enforces tenancy, store scope, roles and permissions exactly
 * as for the caller. The OpenAPI document (public) is fetched once, on first use, and kept.
 */
export interface ApiResult {
  status: number;
  /** The parsed JSON body (the API's envelope), or null. */
  body: any;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, any> };
}

export interface RequestOptions {
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface DukaApi {
  openapi(): Promise<OpenApiDoc>;
  request(token: string, method: string, path: string, opts?: RequestOptions): Promise<ApiResult>;
}

const TIMEOUT_MS = 20_000;

/** The API did not answer at all (down, unreachable, timed out): the agent answers 502, never a guess. */
export class ApiUnavailableError extends Error {}

export function httpApi(baseUrl: string): DukaApi {
  let doc: Promise<OpenApiDoc> | null = null;

  async function request(token: string | null, method: string, path: string, opts: RequestOptions = {}): Promise<ApiResult> {
    const url = new URL(baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...opts.headers, accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: method.toUpperCase(),
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      text = await res.text();
    } catch (err) {
      throw new ApiUnavailableError(`the Duka API could not be reached (${(err as Error).name})`);
    }
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body };
  }

  return {
    openapi() {
      // A failed fetch is not kept: the next question tries again (the API may have started after the agent).
      doc ??= request(null, 'get', '/openapi.json').then((r) => {
        if (r.status !== 200 || !r.body?.paths) throw new Error(`the API's OpenAPI document could not be read (status ${r.status})`);
        return r.body as OpenApiDoc;
      });
      doc.catch(() => (doc = null));
      return doc;
    },
    request: (token, method, path, opts) => request(token, method, path, opts),
  };
}
