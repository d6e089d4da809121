// JSON-schema validation for routes. Bodies are strict (no type coercion, no silently
// dropped fields); query strings and params coerce, since everything there is text.
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { NotFoundError, ValidationError } from '../errors.js';

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

/** The schema keyword that holds a params schema's not-found message (see namingParams). */
export const NOT_FOUND_KEYWORD = 'x-not-found';

/**
 * Path params that name one thing (an item, a category). An id that fails the schema, such
 * as `abc` where a uuid belongs, cannot name anything, so the route answers as it does for
 * an unknown id: 404 with its not-found message, not a 400 about the id's format.
 */
export function namingParams<S extends object>(
  schema: S,
  notFoundMessage: string,
): S & { [NOT_FOUND_KEYWORD]: string } {
  return { ...schema, [NOT_FOUND_KEYWORD]: notFoundMessage };
}

/**
 * Text PostgreSQL cannot keep: NUL (no text or jsonb value may hold it) and lone UTF-16
 * surrogates, which are not Unicode at all (jsonb refuses them; UTF-8 cannot carry them).
 * A JSON body can carry both as escapes (`\u0000`, `\ud800`) and a query string or path
 * can carry NUL as %00, so every string of every part is checked before the schema runs:
 * refused here with a 400 that names the field, instead of a 500 from the database.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isUnstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The field holding (or named with) unstorable text, as `rows.3.cells.0`; null if none does. */
export function unstorableField(data: unknown): string | null {
  // A loop with its own stack, not recursion: a body nested 100,000 deep must not overflow.
  const stack: Array<[unknown, string]> = [[data, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (isUnstorable(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path ? `${path}.${i}` : String(i)]);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (isUnstorable(key)) return path || 'a field name';
        stack.push([inner, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema);
  const notFound = httpPart === 'params' ? (schema as Record<string, unknown>)[NOT_FOUND_KEYWORD] : undefined;
  const part = PART_NAMES[httpPart ?? 'body'] ?? 'request';
  // Fastify takes `{ error }` from a validator as the request's error, and the app's one
  // error handler turns a DomainError into its status and { error: message }.
  const checked = (data: unknown, dataCxt?: any) => {
    const field = unstorableField(data);
    if (field !== null) {
      // Such an id names nothing: a naming param answers as for an unknown one.
      if (typeof notFound === 'string') return { error: new NotFoundError(notFound) };
      const top = httpPart === 'body' ? field.split('.')[0] : '';
      return {
        error: new ValidationError(
          `${field || part} must not contain NUL characters or invalid Unicode`,
          top || undefined,
        ),
      };
    }
    if (validate(data, dataCxt)) return true;
    if (typeof notFound === 'string') return { error: new NotFoundError(notFound) };
    checked.errors = validate.errors;
    return false;
  };
  checked.errors = null as typeof validate.errors;
  // Fastify passes the parent object to Ajv validators (so coercion can write back) when it sees schemaEnv.
  return Object.assign(checked, { schemaEnv: validate.schemaEnv });
};

/** Turns the first schema error into a sentence that names the field. */
export function describeValidationError(errors: ErrorObject[], part: string): string {
  const error = errors[0];
  if (!error) return 'Invalid request';
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${params.missingProperty as string} is required`;
    case 'additionalProperties':
      return `Unknown field: ${params.additionalProperty as string}`;
    case 'type':
      return `${field || part} must be ${params.type as string}`;
    case 'minimum':
      // Ajv's 'must be >= 0' reads as arithmetic; a count or a price below zero is simply negative.
      if (params.limit === 0 && params.comparison === '>=') return `${field || part} cannot be negative`;
      return `${field || part} ${error.message ?? 'is invalid'}`;
    default:
      return `${field || part} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * The top-level body field the first schema error is about (a missing one included), so
 * the 400 can say which input to point at; null for an unknown field or the body as a whole.
 */
export function validationErrorField(errors: ErrorObject[]): string | null {
  const error = errors[0];
  if (!error) return null;
  if (error.keyword === 'required')
    return String((error.params as { missingProperty?: unknown }).missingProperty ?? '') || null;
  if (error.keyword === 'additionalProperties') return null;
  const top = error.instancePath.split('/')[1];
  return top ? top.replace(/~1/g, '/').replace(/~0/g, '~') : null;
}
