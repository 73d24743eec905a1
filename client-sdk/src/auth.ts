/**
 * Sign-in and tokens, and the one door to the server: every connector call goes through here, so
 * reachability is tracked and the till's closing aborts it. Tokens live in the replica, so a
 * restarted till is still signed in. The access token is refreshed shortly before it expires and
 * again when the server answers 401; one refresh is in flight at a time, because the server rotates
 * refresh tokens and treats a reused one as theft (it signs the whole sign-in out). When the tokens
 * are gone or refused the till keeps selling; only syncing waits for a new `login`.
 */
import type { TokenPair } from '@duka/shared';
import { fromBase64 } from './base64.js';
import { TillApi } from './api.js';
import type { TillConnector } from './connector.js';
import { DukaApiError } from './http/errors.js';
import type { LocalDb } from './local/db.js';
import { deleteMeta, getMeta, type MetaValues, setMeta } from './local/meta.js';
import { NetworkError, TillError } from './errors.js';

/** The server as the till reaches it: the connector's transport and the typed endpoints over it. */
export interface Server {
  connector: TillConnector;
  api: TillApi;
}

/** Who is signed in on the till. */
export type TillUser = MetaValues['user'];

/** What the till reads from its access token (not verified: the server does that). */
export interface TokenClaims {
  sub: string;
  org: string | null;
  store: string | null;
  role: string;
  perms: string[];
  /** Epoch seconds. */
  exp: number;
}

export function decodeClaims(token: string): TokenClaims | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    return JSON.parse(new TextDecoder().decode(fromBase64(part))) as TokenClaims;
  } catch {
    return null;
  }
}

export interface AuthOptions {
  db: LocalDb;
  connector: TillConnector;
  /** Aborted when the till closes: every call in flight stops. */
  signal: AbortSignal;
  now: () => number;
  /** Refresh this long before the access token expires (default 60 s). */
  refreshMarginMs?: number;
  /** The tokens were refused or cleared: sign in again to sync. */
  onAuthRequired: (reason: string) => void;
  /** After every call: true when the server answered, false when it could not be reached. */
  onReachable?: (reached: boolean) => void;
}

export class AuthSession {
  private refreshing: Promise<string> | null = null;
  /**
   * The access token and its expiry as last read from the replica, so that a call signs in without
   * a read (in a browser, a read queues in the worker behind whatever it is writing: a bootstrap's
   * next page waited behind the previous page's inserts). Forgotten whenever the tokens are written.
   */
  private held: { token: string; expires: number } | null = null;
  /** Moves when the tokens are written: a read begun before then is not kept. */
  private written = 0;
  private readonly margin: number;
  private readonly server: Server;

  constructor(private readonly o: AuthOptions) {
    this.margin = o.refreshMarginMs ?? 60_000;
    this.server = { connector: o.connector, api: new TillApi(o.connector) };
  }

  /** Sign in with an email or phone and a password. */
  async login(identifier: string, password: string): Promise<TillUser> {
    const pair = await this.call(({ api }, signal) => api.login({ identifier, password }, signal));
    if ('mfa_required' in pair) throw new TillError('FORBIDDEN', 'this account signs in with an authenticator code; a till cannot use it');
    const { id, first_name, last_name, email, role, password_change_required } = pair.user;
    return this.keep(pair, { id, first_name, last_name, email, role, ...(password_change_required ? { password_change_required } : {}) });
  }

  /**
   * Set the signed-in user's new password (`PATCH /accounts/me`): the one thing a session signed in
   * with a temporary password may do. The session goes on (the server signs out the user's others).
   */
  async setPassword(password: string): Promise<TillUser> {
    const user = await getMeta(this.o.db, 'user');
    if (!user) throw new TillError('AUTH_REQUIRED', 'sign in to sync');
    await this.authed(({ api }, token, signal) => api.setPassword(token, password, signal));
    const { password_change_required: _, ...settled } = user;
    await setMeta(this.o.db, 'user', settled);
    return settled;
  }

  /** Text a sign-in code to a phone (the server answers the same for unknown numbers). */
  async requestOtp(phone: string): Promise<void> {
    await this.call(({ api }, signal) => api.requestOtp(phone, signal));
  }

  /** Sign in with the code texted by `requestOtp`. */
  async loginWithOtp(phone: string, code: string): Promise<TillUser> {
    const data = await this.call(({ api }, signal) => api.verifyOtp(phone, code, signal));
    const claims = decodeClaims(data.access_token);
    return this.keep(data, { id: claims?.sub ?? '', role: claims?.role ?? 'staff' });
  }

  /** Sign out on the server (best effort) and forget the tokens. The queue stays. */
  async logout(): Promise<void> {
    const token = await getMeta(this.o.db, 'access_token');
    const refresh = await getMeta(this.o.db, 'refresh_token');
    if (token) await this.call(({ api }, signal) => api.logout(token, refresh, signal)).catch(() => {});
    await this.clear();
  }

  async user(): Promise<TillUser | undefined> {
    return getMeta(this.o.db, 'user');
  }

  async hasTokens(): Promise<boolean> {
    return (await getMeta(this.o.db, 'refresh_token')) !== undefined;
  }

  /** The current access token's claims (also when it has expired), or null when signed out. */
  async claims(): Promise<TokenClaims | null> {
    const token = await getMeta(this.o.db, 'access_token');
    return token ? decodeClaims(token) : null;
  }

  /** Whether the server answers (reachability is reported as for every call); false when the connector cannot tell. */
  async ping(): Promise<boolean> {
    if (!this.o.connector.ping) return false;
    return this.call(({ connector }, signal) => connector.ping!(signal)).then(
      () => true,
      () => false,
    );
  }

  /** A usable access token: the stored one, or a fresh one when it expires within the margin. */
  async accessToken(): Promise<string> {
    let held = this.held;
    if (!held) {
      const before = this.written;
      const [token, expires] = await Promise.all([getMeta(this.o.db, 'access_token'), getMeta(this.o.db, 'access_expires_at')]);
      if (!token) throw new TillError('AUTH_REQUIRED', 'sign in to sync');
      held = { token, expires: expires ?? 0 };
      if (before === this.written) this.held = held;
    }
    const { token, expires } = held;
    if (expires - this.o.now() <= this.margin) return this.refresh(token);
    return token;
  }

  /**
   * Exchange the refresh token, once for all callers. `stale` is the access token the caller found
   * wanting: if another refresh replaced it meanwhile, the new one is answered without a second refresh.
   */
  async refresh(stale?: string): Promise<string> {
    // Another tab or a refresh under way may have stored a newer token: read it from the replica.
    this.forget();
    if (this.refreshing) return this.refreshing;
    const current = await getMeta(this.o.db, 'access_token');
    if (stale && current && current !== stale) return current;
    if (this.refreshing) return this.refreshing;
    this.refreshing = this.doRefresh().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** An authenticated call: its token refreshed before expiry, refreshed and the call retried once on 401. */
  async authed<T>(fn: (s: Server, token: string, signal: AbortSignal) => Promise<T>): Promise<T> {
    const token = await this.accessToken();
    try {
      return await this.call((s, signal) => fn(s, token, signal));
    } catch (err) {
      if (!(err instanceof DukaApiError) || err.status !== 401) throw err;
      const fresh = await this.refresh(token);
      try {
        return await this.call((s, signal) => fn(s, fresh, signal));
      } catch (again) {
        if (again instanceof DukaApiError && again.status === 401) throw await this.refused(again.message);
        throw again;
      }
    }
  }

  private async doRefresh(): Promise<string> {
    const refreshToken = await getMeta(this.o.db, 'refresh_token');
    if (!refreshToken) throw await this.refused('not signed in');
    try {
      const data = await this.call(({ connector }, signal) => connector.refresh(refreshToken, signal));
      await this.store(data);
      return data.access_token;
    } catch (err) {
      if (err instanceof DukaApiError && (err.status === 401 || err.status === 400)) throw await this.refused(err.message);
      throw err;
    }
  }

  /** One call to the server: reachability reported, and once the till has closed, CLOSED rather than a network error. */
  private async call<T>(fn: (s: Server, signal: AbortSignal) => Promise<T>): Promise<T> {
    const closed = () => new TillError('CLOSED', 'the till is closed');
    if (this.o.signal.aborted) throw closed();
    try {
      const answer = await fn(this.server, this.o.signal);
      this.o.onReachable?.(true);
      return answer;
    } catch (err) {
      if (this.o.signal.aborted) throw closed();
      if (err instanceof DukaApiError || err instanceof NetworkError) this.o.onReachable?.(err instanceof DukaApiError);
      throw err;
    }
  }

  /** Forget the tokens and say so; answers the error to throw. */
  private async refused(reason: string): Promise<TillError> {
    await this.clear();
    this.o.onAuthRequired(reason);
    return new TillError('AUTH_REQUIRED', `sign in again to sync: ${reason}`);
  }

  private async clear(): Promise<void> {
    await deleteMeta(this.o.db, 'access_token', 'refresh_token', 'access_expires_at');
    this.forget();
  }

  private async keep(pair: TokenPair, user: TillUser): Promise<TillUser> {
    const claims = decodeClaims(pair.access_token);
    const full: TillUser = { ...user, role: claims?.role ?? user.role, perms: claims?.perms ?? [] };
    await this.o.db.transaction().execute(async (trx) => {
      await setMeta(trx, 'user', full);
      await this.store(pair, trx);
    });
    this.forget();
    return full;
  }

  private async store(pair: TokenPair, db: Parameters<typeof setMeta>[0] = this.o.db): Promise<void> {
    const write = async (x: Parameters<typeof setMeta>[0]) => {
      await setMeta(x, 'access_token', pair.access_token);
      await setMeta(x, 'refresh_token', pair.refresh_token);
      await setMeta(x, 'access_expires_at', this.o.now() + pair.expires_in * 1000);
      // Permissions travel in the token and change at refresh; the till checks them offline too.
      const claims = decodeClaims(pair.access_token);
      const user = await getMeta(x, 'user');
      if (claims && user && user.id === claims.sub) await setMeta(x, 'user', { ...user, role: claims.role, perms: claims.perms ?? [] });
    };
    if (db === this.o.db) await this.o.db.transaction().execute(write);
    else await write(db);
    this.forget();
  }

  /** After the tokens are written: a read begun before is not kept (`written`), the next one reads them. */
  private forget(): void {
    this.held = null;
    this.written++;
  }
}
