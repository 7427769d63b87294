/**
 * What the database's failures mean to a client, decided here by the drivers' codes so that no
 * layer above reads an error's text: a database that does not answer (PostgreSQL restarting,
 * failing over, gone) is `StoreUnavailable`, a disk with no room left (SQLite's file, its WAL)
 * is `InsufficientStorage`. Everything else stays what it was: a bug, answered 500 and logged.
 */
import { InsufficientStorage, StoreUnavailable, ZonedeckError } from '../core/errors';

/**
 * PostgreSQL's SQLSTATEs of a session that ended or could not start: class 08 (connection
 * exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting or
 * stopping), 57P05 idle_session_timeout, 53300 too_many_connections.
 */
const PG_GONE = /^(08...|57P0[1235]|53300)$/;

/** The socket's own failures, on connect or mid-query. */
const SOCKET_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * node-postgres's failures that carry no code: the connection ended under a query, a connect or
 * a pool checkout that took longer than its timeout, a client whose connection failed earlier,
 * a query that got no answer within `query_timeout`.
 */
const PG_CLIENT_GONE = /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)|is not queryable/;

/**
 * A full disk: SQLITE_FULL (SQLite's answer to ENOSPC, and to a file at `max_page_count`),
 * SQLITE_IOERR_SHMSIZE (the WAL's index could not grow), and ENOSPC or EDQUOT from an fsync or
 * write of our own.
 */
const NO_SPACE = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT']);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `err` says the database does not answer. */
export function isConnectionFault(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = codeOf(err);
  if (code !== undefined && (PG_GONE.test(code) || SOCKET_GONE.has(code))) return true;
  // A connect tried on several addresses (localhost's ::1 and 127.0.0.1) fails with all of them.
  if (err instanceof AggregateError && err.errors.length > 0 && err.errors.every(isConnectionFault)) return true;
  return code === undefined && PG_CLIENT_GONE.test(err.message);
}

/** Whether `err` says the disk is full. */
export function isNoSpace(err: unknown): boolean {
  if (err instanceof InsufficientStorage) return true;
  const code = codeOf(err);
  return err instanceof Error && code !== undefined && NO_SPACE.has(code);
}

/** The typed error `err` means, or `err` itself when it means nothing of the kind. */
export function storeFault(err: unknown): unknown {
  if (err instanceof ZonedeckError) return err;
  if (isConnectionFault(err)) return new StoreUnavailable();
  if (isNoSpace(err)) return new InsufficientStorage();
  return err;
}

/**
 * A COMMIT that failed: when the connection went away under it, the database may have stored the
 * change or not, and the client must not take it for either.
 */
export function commitFault(err: unknown): unknown {
  if (isConnectionFault(err)) return new StoreUnavailable('the database stopped answering while this change was committed: it may or may not be stored; read it back before sending it again');
  if (isNoSpace(err) && !(err instanceof InsufficientStorage)) return new InsufficientStorage();
  return storeFault(err);
}
