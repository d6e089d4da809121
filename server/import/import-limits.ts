// The bounds of one import's dry run (IMPORT_MAX_ROWS, IMPORT_MAX_BYTES): the browser sends
// the whole file in one request, so these bound the memory and time one request can take.
// Past either the answer is 413 with a sentence saying how big the file is and what the
// limit is, before the body is read (bytes) or checked row by row (rows).
import type { FastifyRequest } from 'fastify';
import type { ImportLimits } from '../config.js';
import { PayloadTooLargeError } from '../errors.js';

const MB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes < MB
    ? `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB`
    : `${(bytes / MB).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** onRequest: a declared body over the byte limit is refused before a byte of it is read. */
export function refuseLargeFile(limits: ImportLimits) {
  return async (request: FastifyRequest) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      throw new PayloadTooLargeError(
        `The file is too large to import at once: ${size(declared)}; the limit is ${size(limits.maxBytes)}. Split it into smaller files`,
      );
    }
  };
}

/** preValidation: more rows than the limit, refused before any row is checked. */
export function refuseManyRows(limits: ImportLimits) {
  return async (request: FastifyRequest) => {
    const rows = (request.body as { rows?: unknown } | null)?.rows;
    if (Array.isArray(rows) && rows.length > limits.maxRows) {
      throw new PayloadTooLargeError(
        `The file has ${count(rows.length)} rows; the limit is ${count(limits.maxRows)}. Split it into smaller files`,
      );
    }
  };
}
