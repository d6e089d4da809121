// JSON-schema validation for routes. Bodies are strict (no type coercion, no silently
// dropped fields); query strings and params coerce, since everything there is text.
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema);

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
