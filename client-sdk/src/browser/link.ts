/** The main thread's half of the worker protocol: requests by id, answers matched back to them. */
import type { ExecResult, FailureKind, PortLike, SqliteRequest, SqliteResponse, Step } from './protocol.js';

/** A request the worker refused. `code` is SQLite's (`SQLITE_CONSTRAINT_PRIMARYKEY`), as better-sqlite3 names it. */
export class WorkerSqliteError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly code?: string,
    /** Which of a batch's steps failed. */
    readonly step?: number,
  ) {
    super(message);
    this.name = 'WorkerSqliteError';
  }
}

type Request = SqliteRequest extends infer R ? (R extends SqliteRequest ? Omit<R, 'id'> : never) : never;

export class WorkerLink {
  private nextId = 1;
  private gone: Error | null = null;
  private readonly waiting = new Map<number, { resolve: (r: SqliteResponse & { ok: true }) => void; reject: (e: Error) => void }>();
  private readonly onMessage = (event: { data: unknown }) => {
    const res = event.data as SqliteResponse;
    const pending = this.waiting.get(res.id);
    if (!pending) return;
    this.waiting.delete(res.id);
    if (res.ok) pending.resolve(res);
    else pending.reject(new WorkerSqliteError(res.kind, res.message, res.sqliteCode, res.step));
  };

  constructor(private readonly port: PortLike) {
    port.addEventListener('message', this.onMessage);
    port.start?.();
  }

  async request(req: Request): Promise<ExecResult | undefined> {
    return (await this.send(req)).result;
  }

  /** Several statements in one message (see `protocol.ts`): each one's result, in order. */
  async batch(steps: Step[]): Promise<ExecResult[]> {
    return (await this.send({ op: 'batch', steps })).results ?? [];
  }

  private send(req: Request): Promise<SqliteResponse & { ok: true }> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ ...req, id });
    });
  }

  /** Stop listening; whatever still waits, and every later request, is refused with `reason` (the worker is gone). */
  dispose(reason: Error): void {
    if (this.gone) return;
    this.gone = reason;
    this.port.removeEventListener('message', this.onMessage);
    for (const pending of this.waiting.values()) pending.reject(reason);
    this.waiting.clear();
  }
}
