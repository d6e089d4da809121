// JSON-schema validation for routes. Bodies are strict (no type coercion, no silently
// dropped fields); query strings and params coerce, since everything there is text.
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { NotFoundError } from '../errors.js';

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
export function namingParams<S extends object>(schema: S, notFoundMessage: string): S & { [NOT_FOUND_KEYWORD]: string } {
  return { ...schema, [NOT_FOUND_KEYWORD]: notFoundMessage };
}

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema);
  const notFound = httpPart === 'params' ? (schema as Record<string, unknown>)[NOT_FOUND_KEYWORD] : undefined;
  if (typeof notFound !== 'string') return validate;
  // Fastify takes `{ error }` from a validator as the request's error, and the app's one
  // error handler turns a NotFoundError into 404 { error: message }.
  const validateNaming = (data: unknown, dataCxt?: any) => (validate(data, dataCxt) ? true : { error: new NotFoundError(notFound) });
  // Fastify passes the parent object to Ajv validators (so coercion can write back) when it sees schemaEnv.
  return Object.assign(validateNaming, { schemaEnv: validate.schemaEnv, errors: null });
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
    default:
      return `${field || part} ${error.message ?? 'is invalid'}`;
  }
}
