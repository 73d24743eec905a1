/** The chaos run's actors: the owner's REST client (straight to the server) and a till in its own process. */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { FromTill, TillReport, ToTill } from './protocol.js';
export { freePort } from '../setup/free-port.js';

export const PASSWORD = 'chaos-2026-duka';

/** The owner's REST client, straight to the servers (never through the proxy), taking them in turn when there are several. */
export class Owner {
  token = '';
  identifier = '';
  private calls = 0;
  constructor(private readonly apis: string[]) {}
  async call(method: string, p: string, body?: unknown, headers: Record<string, string> = {}, retried = false): Promise<any> {
    const api = this.apis[this.calls++ % this.apis.length]!;
    const res = await fetch(api + p, {
      method,
      headers: { 'content-type': 'application/json', ...headers, ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status === 401 && this.identifier && !retried) {
      // The access tokens of this run live 90 s: sign in again, as the owner's browser would.
      const login = await this.call('POST', '/auth/login', { identifier: this.identifier, password: PASSWORD }, {}, true);
      this.token = login.data.access_token ?? login.data.tokens?.access_token;
      return this.call(method, p, body, headers, true);
    }
    if (!res.ok) throw new Error(`${method} ${p} → ${res.status}: ${JSON.stringify(json.errors ?? json)}`);
    return json;
  }
  /** Every page of a list whose items sit at `data[key]` (or `data` itself). */
  async all(p: string, key?: string): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const sep = p.includes('?') ? '&' : '?';
      const r = await this.call('GET', `${p}${sep}page=${page}&page_size=100`);
      out.push(...(key ? r.data[key] : r.data));
      if (page >= (r.meta?.total_pages ?? 1)) return out;
    }
  }
}

/**
 * A worker process driven over IPC (a till of the chaos run, a pool of the soak's tills): messages
 * out, and a wait for the next message of a type; a `failed` message or a crash is reported once.
 */
export class WorkerProcess<To, From extends { type: string }> {
  readonly child: ChildProcess;
  private readonly waiters = new Map<string, Array<(m: From) => void>>();
  failure: string | null = null;
  constructor(
    readonly name: string,
    script: string,
    onFailure: (name: string, error: string) => void,
    onMessage: (m: From) => void = () => {},
  ) {
    this.child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    this.child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-5000)));
    this.child.on('message', (m: From) => {
      if (m.type === 'failed') {
        this.failure = (m as unknown as { error: string }).error;
        onFailure(name, this.failure);
      }
      onMessage(m);
      for (const w of this.waiters.get(m.type) ?? []) w(m);
      this.waiters.delete(m.type);
    });
    this.child.on('exit', (code) => {
      if (code && !this.failure) onFailure(name, `exited with ${code}: ${stderr}`);
    });
  }
  send(m: To) {
    this.child.send(m as object);
  }
  next<T extends From['type']>(type: T, timeoutMs: number): Promise<Extract<From, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no "${type}" after ${timeoutMs} ms`)), timeoutMs);
      const list = this.waiters.get(type) ?? [];
      list.push((m) => {
        clearTimeout(timer);
        resolve(m as Extract<From, { type: T }>);
      });
      this.waiters.set(type, list);
    });
  }
}

/** A chaos till in its own process (till-worker.ts). */
export class TillProcess extends WorkerProcess<ToTill, FromTill> {
  report: TillReport | null = null;
  constructor(name: string, onFailure: (name: string, error: string) => void) {
    super(name, path.join(import.meta.dirname, 'till-worker.ts'), onFailure, (m) => {
      if (m.type === 'report') this.report = m.report;
    });
  }
}
