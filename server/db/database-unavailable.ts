// Tells a lost or refused database connection apart from every other error. While the
// database is restarting, failing over or unreachable, requests answer 503 with Retry-After
// (the client retries by itself) instead of 500, and nothing in the process dies.
import { DomainError } from '../errors.js';

export const DATABASE_UNAVAILABLE_MESSAGE = 'Database unavailable, try again shortly';
/** Seconds a client is asked to wait: about what a managed PostgreSQL restart takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export class DatabaseUnavailableError extends DomainError {
  constructor() {
    super(DATABASE_UNAVAILABLE_MESSAGE, 503, 'database_unavailable');
  }
}

// SQLSTATE classes and codes that mean "the server went away or won't take us now":
// 08 connection exception, 57P01-57P03 admin/crash shutdown and "cannot connect now",
// 53300 too many connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres reports a dropped socket and a pool that could not connect in time with
// plain Errors that carry no code; these are their messages.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string') {
    if (e.code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_NODE_CODES.has(e.code)) return true;
  }
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // AggregateError (several addresses refused) and wrapped causes.
  const inner = (e as { errors?: unknown[] }).errors;
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isDatabaseUnavailable)) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}
