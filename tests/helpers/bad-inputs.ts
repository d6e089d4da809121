// Generators of bad inputs for the API fuzz test (fast-check): strings that PostgreSQL or
// UTF-8 cannot hold, boundary numbers, malformed cursors, ids and dates, wrong JSON types,
// malformed JSON texts and wrong content types. Every value is one a client could send.
import fc from 'fast-check';

/** A JSON number written exactly as given (-0, 1e400, 2^63 without rounding): JSON.stringify cannot. */
export class RawJson {
  constructor(readonly text: string) {}
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** Cursors of the paged lists (inventory: base64url "moment|uuid"; activity: base64url JSON). */
export const MALFORMED_CURSORS = [
  b64(`1|${'-'.repeat(36)}`),
  b64(`1|${'f'.repeat(36)}`),
  b64(`9999-99-99|${ZERO_UUID}`),
  b64(`-|${ZERO_UUID}`),
  b64(`2024-01-01T00:00:00Z|${'-'.repeat(36)}`),
  b64(`0000-01-01T00:00:00Z|${ZERO_UUID}`),
  b64(`1|2|3`),
  b64('{"k":"x","p":1.5}'),
  b64('{"k":"x","p":1e308}'),
  b64('{"k":"x","p":1e20}'),
  b64('{"k":"x","p":-1}'),
  b64('{"k":"x","p":1e400}'),
  b64('{"k":"\\u0000","p":1}'),
  b64('{"k":"\\ud800","p":1}'),
  b64('{"k":1,"p":1}'),
  b64('{"k":"x"}'),
  b64('null'),
  b64('[]'),
  b64('"x"'),
  b64('\u0000'),
  '!!!',
  '====',
  '%',
];

/** Strings a careless parser or database chokes on; the big ones stay under the body limit. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udfff\ud800',
  'ok \ud83d',
  '💥',
  '\u202e\ufeff',
  '\t\n\r\u0007\u001b',
  'x'.repeat(5_000),
  '𝌆'.repeat(3_000),
  "'; drop table items; --",
  '%00',
  '../../etc/passwd',
  '<img src=x onerror=alert(1)>',
  '=1+1',
  'null',
  'true',
  '[]',
  '{}',
  '1e308',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '99999999999999999999',
  '99999999999999999999:1',
  '1:99999999999999999999',
  '18446744073709551615:9223372036854775807',
  '18446744073709551616:1',
  '1:9223372036854775808',
  '0:0',
  '0001-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59+23:59',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '1969-12-31T23:59:59.999Z',
  '2024-02-30T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-06-30T23:59:60Z',
  '2024-01-01T00:00:00.123456789Z',
  'yesterday',
  ZERO_UUID,
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '-'.repeat(36),
  'g'.repeat(36),
  'http://example.invalid/x.png',
  'javascript:alert(1)',
  'srk_' + 'A'.repeat(43),
  ...MALFORMED_CURSORS,
];

/** Numbers at the edges: of JSON, of doubles, of int32/int64/xid8, and of a schema's range. */
export const BOUNDARY_NUMBERS: Array<number | RawJson> = [
  0,
  -1,
  1.5,
  0.1,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  2 ** 64,
  -(2 ** 63),
  new RawJson('-0'),
  new RawJson('-0.0'),
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('9007199254740993'),
  new RawJson('9223372036854775808'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('1.0'),
  new RawJson('1E2'),
];

/** Any JSON value of a type other than the schema wants (and some of the same type at the edges). */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...BOUNDARY_NUMBERS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[[]]], { a: { b: { c: 1 } } }, ['\u0000'], {
      '\u0000': 1,
    }),
  },
  // Arbitrary text, with a lone surrogate or NUL spliced in somewhere.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom('\u0000', '\ud800', '\udc00', ''),
        fc.nat(40),
      )
      .map(([text, odd, at]) => text.slice(0, at) + odd + text.slice(at)),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new RawJson(n.toString())) },
);

/** Moments at and past the edges of what a date-time format lets through. */
export const BAD_MOMENTS = NASTY_STRINGS.filter((s) => /^\d{4,6}-\d\d-\d\dT/.test(s) || s === 'yesterday' || s === '');

/** Ids shaped almost like uuids (and numbers where text belongs). */
export const BAD_IDS = [
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '-'.repeat(36),
  'g'.repeat(36),
  '0',
  '\u0000',
  '\ud800',
  'x'.repeat(5_000),
];

const UNSTORABLE = ['\u0000', 'a\u0000b', '\ud800', 'x\udfff', 'ok \ud83d', 'x'.repeat(5_000), '𝌆'.repeat(3_000)];

/**
 * Bad values aimed at one field: for a cursor, malformed cursors; for a moment, moments past
 * the edges; for a number, boundary numbers; for text, text the database cannot store. A
 * generic bad value rarely lands on the one field that breaks, so plans ask for these too.
 */
export function badFor(schema: Record<string, any> | undefined, name: string): unknown[] {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== 'null') : schema?.type;
  if (/cursor/i.test(name) || String(schema?.pattern ?? '').includes(':')) {
    return [...MALFORMED_CURSORS, ...NASTY_STRINGS.filter((s) => /^-?\d+:-?\d+$/.test(s)), ...UNSTORABLE];
  }
  if (schema?.format === 'date-time' || /^(asOf|from|to)$|At$/.test(name)) return [...BAD_MOMENTS, ...UNSTORABLE];
  if (schema?.format === 'uuid' || /id$/i.test(name)) return [...BAD_IDS, ...BOUNDARY_NUMBERS.slice(0, 4)];
  if (type === 'integer' || type === 'number') return [...BOUNDARY_NUMBERS, '1', '1e308', 'NaN', null];
  if (type === 'boolean') return ['true', 1, 0, null, 'yes'];
  if (type === 'array') return [[], [null], ['\u0000'], ['\ud800'], [1e308], 'x', {}];
  if (type === 'object') return [[], 'x', null, { '\u0000': 1 }];
  if (Array.isArray(schema?.enum)) return [...UNSTORABLE, String(schema.enum[0]).toUpperCase(), ` ${schema.enum[0]}`];
  return UNSTORABLE;
}

/** Names of fields no schema knows (some that reach for prototypes). */
export const extraFieldName = fc.constantFrom(
  'extra',
  '__proto__',
  'constructor',
  '',
  'a\u0000',
  '\ud800',
  'id',
  'version',
  'created_by',
  'role',
);

/** Request bodies that are not JSON, or JSON no parser should take at face value. */
export const MALFORMED_JSON_TEXTS = [
  '',
  '{',
  '{"a":',
  '[1,]',
  '{"a":1}garbage',
  "{'a':1}",
  'NaN',
  '\u0000',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}`,
];

/** Content types other than the JSON the API takes (and JSON ones spelled oddly). */
export const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json, text/plain',
  'application/octet-stream',
  'application/jsonx',
  '*/*',
];

/** The JSON text of a value that may hold RawJson numbers, lone surrogates and NULs. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${escapeString(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/** JSON.stringify escapes lone surrogates as \udxxx (well-formed JSON.stringify), which is what a client sends. */
const escapeString = (text: string) => JSON.stringify(text);

/** A value as query-string text: percent-encoded, lone surrogates as their (invalid) UTF-8 bytes. */
export function queryText(value: unknown): string {
  const text =
    value instanceof RawJson ? value.text : typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      // What a client that does not check its text sends: the surrogate's three UTF-8 bytes.
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Query and path text as sent raw (already percent-encoded, some of it invalid). */
export const RAW_URL_TEXTS = [
  '%00',
  '%ZZ',
  '%',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%E2%80%AE',
  '..%2F..%2F',
  '%2F',
  'a%20b',
  '%25',
];
