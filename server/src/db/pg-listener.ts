import pg from 'pg';
import { checkPublish, SERVER_APPLICATION_NAME, type Unsubscribe } from './handle.js';

/**
 * The longest wait between two attempts to reopen the connection: once the database is back,
 * websockets hear pokes again within this (a connection attempt every few seconds costs nothing).
 */
const MAX_RETRY_MS = 5_000;

interface Subscriber {
  onMessage(payload: string): void;
  onReconnect?: () => void;
  ready: boolean;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * The one LISTEN connection of this process. It is opened on the first subscribe (CLI tools and
 * processes without websockets never open it) and reopened with backoff when it drops; each
 * reopening is told to subscribers (`onReconnect`), since notifications sent meanwhile are lost.
 */
export function pgListener(url: string, onError?: (err: Error) => void) {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | null = null;
  let connecting = false;
  let retry: NodeJS.Timeout | null = null;
  let attempt = 0;
  let closed = false;

  const all = () => [...channels.values()].flatMap((set) => [...set]);

  function dispatch(channel: string, payload: string) {
    for (const s of channels.get(channel) ?? []) {
      try {
        s.onMessage(payload);
      } catch {
        // See the SQLite twin: a subscriber's failure stays with it.
      }
    }
  }

  function lost(c: pg.Client, err?: Error) {
    if (client !== c) return;
    if (err) onError?.(err);
    client = null;
    void c.end().catch(() => {});
    schedule();
  }

  function schedule() {
    if (closed || retry || connecting || client || !channels.size) return;
    const delay = attempt === 0 ? 0 : Math.min(MAX_RETRY_MS, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    retry = setTimeout(() => {
      retry = null;
      void open();
    }, delay);
    retry.unref();
  }

  async function open() {
    if (closed || client || connecting) return;
    connecting = true;
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: SERVER_APPLICATION_NAME });
    c.on('notification', (m) => dispatch(m.channel, m.payload ?? ''));
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      // Channels subscribed while this runs are picked up by the next round.
      const done = new Set<string>();
      for (let todo = [...channels.keys()]; todo.length; todo = [...channels.keys()].filter((ch) => !done.has(ch))) {
        for (const ch of todo) {
          await c.query(`LISTEN ${ch}`);
          done.add(ch);
        }
      }
    } catch (err) {
      connecting = false;
      onError?.(err as Error);
      void c.end().catch(() => {});
      schedule();
      return;
    }
    connecting = false;
    if (closed) {
      void c.end().catch(() => {});
      return;
    }
    client = c;
    attempt = 0;
    for (const s of all()) {
      if (s.ready) s.onReconnect?.();
      else {
        s.ready = true;
        s.resolve();
      }
    }
  }

  return {
    subscribe(channel: string, onMessage: (payload: string) => void, o?: { onReconnect?: () => void }): Promise<Unsubscribe> {
      checkPublish(channel, '');
      if (closed) return Promise.reject(new Error('database handle is closed'));
      return new Promise<Unsubscribe>((resolve, reject) => {
        let set = channels.get(channel);
        const fresh = !set;
        if (!set) channels.set(channel, (set = new Set()));
        const unsubscribe: Unsubscribe = async () => {
          set.delete(sub);
          if (set.size || channels.get(channel) !== set) return;
          channels.delete(channel);
          await client?.query(`UNLISTEN ${channel}`).catch(() => {});
        };
        const sub: Subscriber = { onMessage, onReconnect: o?.onReconnect, ready: false, resolve: () => resolve(unsubscribe), reject };
        set.add(sub);
        const c = client;
        if (!c) return void schedule();
        if (!fresh) {
          sub.ready = true;
          return sub.resolve();
        }
        c.query(`LISTEN ${channel}`).then(
          () => {
            if (sub.ready || client !== c) return;
            sub.ready = true;
            sub.resolve();
          },
          // The connection failed under us; the next one listens to every channel and resolves this.
          (err: Error) => lost(c, err),
        );
      });
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      for (const s of all()) if (!s.ready) s.reject(new Error('database handle is closed'));
      channels.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
