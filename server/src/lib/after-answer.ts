/**
 * Work a route does once its answer has gone out. The public routes that take an account name
 * (`/auth/otp/send`, `/auth/password/forgot`) answer after the same steps for every name and send
 * the code afterwards, so that how long the answer takes cannot tell whether an account exists.
 * The work starts once the answer may leave (`settled`: on SQLite the request waits for the WAL to
 * be on disk before it answers) and then after the event loop's current turn (`setImmediate`), in
 * which the answer is written to the socket. Started on `setImmediate` alone, it ran while a
 * request waited for the WAL sync, and a real account's code and outbox writes (synchronous on
 * SQLite) held that account's answer back. A failure is logged: the caller already has its answer
 * (a code that never arrives is asked for again).
 */
import type { Logger } from 'pino';

export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly log: Logger,
    /** Resolves once the answers being written may leave (the database's `settled`). */
    private readonly settled: () => Promise<void> = async () => {},
  ) {}

  run(what: string, task: () => Promise<unknown>): void {
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Settled as of a turn after the route's own commits, so the answer's own wait ends first.
    const done: Promise<void> = turn()
      .then(() => this.settled())
      .catch(() => undefined)
      .then(turn)
      .then(task)
      .then(
        () => undefined,
        (err: unknown) => this.log.error({ err, task: what }, 'work after the answer failed'),
      )
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves once nothing is running or waiting to run (shutdown; tests reading what the work wrote). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
