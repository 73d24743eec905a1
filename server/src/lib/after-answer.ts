/**
 * Work a route does once its answer has gone out. The public routes that take an account name
 * (`/auth/otp/send`, `/auth/password/forgot`) answer after the same steps for every name and send
 * the code afterwards, so that how long the answer takes cannot tell whether an account exists.
 * `setImmediate` starts the work after the event loop's current turn, in which the answer is
 * written to the socket. A failure is logged: the caller already has its answer (a code that never
 * arrives is asked for again).
 */
import type { Logger } from 'pino';

export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  run(what: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
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
