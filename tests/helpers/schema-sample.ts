// A value that satisfies a JSON schema (the subset the app's OpenAPI document uses), for
// the API fuzz test: a bad input is one good request with one part spoiled, so it reaches
// past the first check instead of always failing on `name is required`.
// `pick(name)` supplies real ids by field name (an item's id for `itemId`, ...).

export type Schema = Record<string, any>;

export interface SampleContext {
  /** A real value for a field of this name (ids of fixtures), or undefined. */
  pick(name: string, schema: Schema): unknown;
  /** A counter that keeps names, SKUs and emails unique across samples. */
  unique(): string;
  /** Every optional field too (to list the places a value can go), not only the required ones. */
  all?: boolean;
}

const firstType = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;

function sampleString(schema: Schema, name: string, ctx: SampleContext): string {
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'date-time') return new Date(Date.now() - 60_000).toISOString();
  if (schema.format === 'date') return '2030-01-01';
  if (schema.format === 'email') return `fuzz-${ctx.unique()}@stockroom.test`;
  if (schema.format === 'uri' || /url$/i.test(name)) return 'http://127.0.0.1:9/fuzz';
  if (schema.pattern === '^\\d{1,20}:\\d{1,20}$') return '0:0';
  if (schema.pattern) return 'staff';
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 100;
  const text = `Fuzz ${ctx.unique()}`.slice(0, Math.max(max, 1));
  return text.length >= min ? text : text.padEnd(min, 'x');
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  let value = low !== undefined ? Math.max(low, 1) : 1;
  if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
  if (Array.isArray(schema.not?.enum) && schema.not.enum.includes(value)) value += 1;
  return integer ? Math.ceil(value) : value;
}

/** A value for `schema`; `name` is the field it fills (for real ids and hints). */
export function sampleOf(schema: Schema | undefined, name: string, ctx: SampleContext): unknown {
  if (!schema) return null;
  const picked = ctx.pick(name, schema);
  if (picked !== undefined) return picked;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.oneOf))
    return sampleOf(
      {
        ...schema,
        oneOf: undefined,
        ...schema.oneOf[0],
        properties: { ...schema.properties, ...schema.oneOf[0].properties },
      },
      name,
      ctx,
    );
  if (Array.isArray(schema.anyOf)) return sampleOf({ ...schema, anyOf: undefined, ...schema.anyOf[0] }, name, ctx);
  switch (firstType(schema) ?? (schema.properties ? 'object' : undefined)) {
    case 'string':
      return sampleString(schema, name, ctx);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return true;
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, 1);
      const items = schema.items ?? {};
      if (Array.isArray(items.enum)) return items.enum.slice(0, count);
      return Array.from({ length: count }, () => sampleOf(items, name.replace(/s$/, ''), ctx));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      // Required fields, and enough optional ones for minProperties.
      let optional = Math.max(0, (schema.minProperties ?? 0) - required.size);
      for (const [key, property] of Object.entries(properties)) {
        if (required.has(key) || ctx.all) out[key] = sampleOf(property, key, ctx);
        else if (optional > 0 && key !== 'expected_version') {
          out[key] = sampleOf(property, key, ctx);
          optional -= 1;
        }
      }
      return out;
    }
    case 'null':
      return null;
    default:
      return null;
  }
}
