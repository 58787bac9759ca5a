/**
 * What a driver's error means for the caller: the database out of reach, or a wait cut short by
 * its bound (sql-client.ts, DatabaseTimeouts). Both answer 503 `database_unavailable`: nothing was
 * committed and the request may be retried.
 */
import { TillpointError } from '../domain/shared/errors';

/** SQLSTATE classes and socket errors that mean "the database cannot be reached", not "this query is wrong". */
const UNREACHABLE_CODES = new Set(['25P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);

/**
 * Whether a driver error means the database is down or the connection was lost (a restart, a
 * terminated backend, a network cut, a transaction ended for idling): the request may be retried
 * later; nothing was committed. Such a connection is not reused.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof TillpointError) return error.code === 'database_unavailable';
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i.test(message)
  );
}

/**
 * SQLSTATEs of a wait cut short by its bound: a statement or lock timeout (57014, 55P03), a
 * transaction ended for idling (25P03). Nothing the statement did is kept.
 */
const TIMEOUT_CODES = new Set(['57014', '55P03', '25P03']);

/** Whether a driver error is a wait cut short by `DatabaseTimeouts`. */
export function isDatabaseTimeout(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}

/** `database_unavailable`; `cause`, the driver's error it stands for. */
export const databaseUnavailable = (cause?: unknown) =>
  new TillpointError('database_unavailable', 'The database is unavailable right now; try again shortly', { cause });

/** `error` as the caller should see it: `database_unavailable` when it is either of the above. */
export function asCallerSees(error: unknown): unknown {
  if (error instanceof TillpointError) return error;
  return isDatabaseUnreachable(error) || isDatabaseTimeout(error) ? databaseUnavailable(error) : error;
}

/**
 * Whether a statement failed because the database was out of reach, not because a wait was cut
 * short by its bound. Such a statement's fate is unknown: the server may have committed it before
 * its connection was lost, and its answer with it. A timeout cancelled it: nothing of it is kept.
 */
export function lostTheDatabase(error: unknown): boolean {
  const cause = error instanceof TillpointError ? error.cause : error;
  return cause !== undefined && !(cause instanceof TillpointError) && isDatabaseUnreachable(cause) && !isDatabaseTimeout(cause);
}
