/**
 * The back office's one way to the server: `/api/v1` over fetch, the contract's envelope
 * unwrapped, the session's tokens kept in localStorage and refreshed once when the server says
 * the access token has expired. A failure is an ApiError carrying the server's message and its
 * per-field errors, which forms highlight; both in the owner's language (`Accept-Language`).
 */
import { signal } from '@preact/signals';
import { type ErrorItem, newId, type PageMeta, type SwitchStoreResult, type TokenPair } from '@duka/shared';
import { lang } from './i18n/lang.js';

export const API = import.meta.env.VITE_DUKA_API ?? '/api/v1';
const SESSION_KEY = 'duka.office.session';

export interface Session {
  access_token: string;
  refresh_token: string;
  /** Signed in with a temporary password: the server takes nothing but the user's new password. */
  password_change?: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly errors: ErrorItem[] = [],
  ) {
    super(message);
  }
  /** The message the server gave for one field (`shop.name`, `rows[3].barcode`), if it named it. */
  field(name: string): string | undefined {
    return this.errors.find((e) => e.field === name)?.message;
  }
}

function kept(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null');
    return s?.access_token && s?.refresh_token ? s : null;
  } catch {
    return null;
  }
}

/** The signed-in session, or null; the shell shows the sign-in screen while it is null. */
export const session = signal<Session | null>(kept());

export function keepSession(tokens: Pick<TokenPair, 'access_token' | 'refresh_token'> | null, passwordChange = false): void {
  session.value = tokens
    ? { access_token: tokens.access_token, refresh_token: tokens.refresh_token, ...(passwordChange ? { password_change: true } : {}) }
    : null;
  if (tokens) localStorage.setItem(SESSION_KEY, JSON.stringify(session.value));
  else localStorage.removeItem(SESSION_KEY);
}

export interface Request {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /**
   * The Idempotency-Key of a write that creates money or stock records: the same key on a retry
   * after a lost answer gets the first answer back instead of a second record (forms keep one per submission).
   */
  idempotencyKey?: string;
}

export interface Answer<T> {
  data: T;
  meta: PageMeta | null;
  message: string;
}

function url(path: string, query: Request['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${API}${path}${qs ? `?${qs}` : ''}`;
}

async function send(method: string, path: string, req: Request, token: string | undefined): Promise<Response> {
  // The server words its errors in the owner's chosen language (English if it were not to speak it).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': lang.value };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  if (req.idempotencyKey) headers['Idempotency-Key'] = req.idempotencyKey;
  try {
    return await fetch(url(path, req.query), {
      method,
      headers,
      body: req.body === undefined ? null : JSON.stringify(req.body),
    });
  } catch {
    throw new ApiError(0, 'the server could not be reached; check the connection and try again', 'NETWORK');
  }
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time: screens that find the token expired together wait for the same one. */
function refresh(): Promise<boolean> {
  const current = session.value;
  if (!current) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const res = await send('POST', '/auth/refresh', { body: { refresh_token: current.refresh_token } }, undefined);
      if (!res.ok) {
        keepSession(null);
        return false;
      }
      keepSession(((await res.json()) as { data: TokenPair }).data, current.password_change);
      return true;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function failure(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as { message?: string; errors?: ErrorItem[] } | null;
  const errors = body?.errors ?? [];
  return new ApiError(res.status, body?.message ?? `the server answered ${res.status}`, errors[0]?.code ?? 'HTTP', errors);
}

/** The raw answer of a signed-in call (a CSV download), refreshed once on an expired token. */
export async function fetchAuthed(method: string, path: string, req: Request = {}): Promise<Response> {
  let res = await send(method, path, req, session.value?.access_token);
  if (res.status === 401 && session.value && (await refresh())) res = await send(method, path, req, session.value?.access_token);
  if (res.status === 401 && session.value) keepSession(null);
  if (!res.ok) throw await failure(res);
  return res;
}

/** A call answered in the envelope: its `data` and `meta`, or an ApiError. 204 answers `data` null. */
export async function api<T = unknown>(method: string, path: string, req: Request = {}): Promise<Answer<T>> {
  const res = await fetchAuthed(method, path, req);
  if (res.status === 204) return { data: null as T, meta: null, message: '' };
  const body = (await res.json()) as { data: T; meta: PageMeta | null; message: string; success: boolean };
  return { data: body.data, meta: body.meta ?? null, message: body.message };
}

export const get = <T>(path: string, query?: Request['query']) => api<T>('GET', path, { query }).then((a) => a.data);

/**
 * A fresh Idempotency-Key. Not `crypto.randomUUID`: a browser offers it only on HTTPS or localhost,
 * and a shop may open the office at its server's plain-HTTP LAN address.
 */
export const newKey = (): string => newId();

/** Moves the session to another of the user's stores: the token fixes the store (the contract), so every later call uses the new pair. */
export async function switchStore(store_id: string): Promise<void> {
  const { data } = await api<SwitchStoreResult>('POST', '/accounts/switch-store', { body: { store_id } });
  keepSession(data.tokens);
}
