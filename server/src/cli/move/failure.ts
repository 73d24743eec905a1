/**
 * What `npm run move-to-postgres` prints when it stops: one line an operator can act on. A refusal
 * says why; a PostgreSQL that cannot be reached, or that refuses the user or the database, is named
 * by host, port, database and user from DATABASE_URL (never its password); anything else is a
 * fault, printed with its stack, which a bug report needs.
 */
import { MoveError } from '../../db/move/move.js';
import { ConfigError } from '../../env.js';

/** Node's and pg's error fields; a connection to `localhost` that fails on every address is an AggregateError with the same code. */
type Failure = Error & { code?: string; errors?: unknown[] };

function where(url: string): { at: string; db: string; user: string } {
  try {
    const u = new URL(url);
    return { at: `${u.hostname}:${u.port || '5432'}`, db: decodeURIComponent(u.pathname.slice(1)) || '(default)', user: u.username };
  } catch {
    return { at: 'DATABASE_URL', db: '(unknown)', user: '(unknown)' };
  }
}

/** The one line about a PostgreSQL that would not take the connection, or null when `err` is something else. */
function connectionProblem(err: Failure, url: string): string | null {
  const { at, db, user } = where(url);
  switch (err.code) {
    case 'ECONNREFUSED':
      return `cannot reach PostgreSQL at ${at}: connection refused (is it running, and is DATABASE_URL's port right?); nothing was moved`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot reach PostgreSQL: the host of DATABASE_URL (${at}) is not known; nothing was moved`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `cannot reach PostgreSQL at ${at} (${err.code}); nothing was moved`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${at} refused user "${user}": ${err.message}; check DATABASE_URL's user and password; nothing was moved`;
    case '3D000':
      return `PostgreSQL at ${at} has no database "${db}": create it first (createdb ${db}); nothing was moved`;
    default:
      return null;
  }
}

export function describeFailure(err: unknown, url: string | undefined): string {
  if (err instanceof MoveError || err instanceof ConfigError) return err.message;
  const e = err as Failure;
  const problem = url ? connectionProblem(e, url) : null;
  if (problem) return problem;
  // Another refusal by PostgreSQL (a value it will not take, a lost connection): its own message says which.
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
    return `the move failed and nothing was kept: PostgreSQL said ${e.message} (${e.code})`;
  // A fault (a bug): rolled back as a refusal is, and the stack goes with it.
  return `the move failed and nothing was kept: ${e?.stack ?? String(err)}`;
}
