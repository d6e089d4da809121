// A CSV answer in the format the client asked for (?delimiter=comma|semicolon|tab and
// ?encoding=utf-8|utf-8-bom|windows-1252; without them, comma and UTF-8 as always). The
// item, activity and changes exports share it: each writes its lines with the format's
// delimiter (shared/csv-cell.ts); this module turns those lines into bytes.
//
// Windows-1252 holds 251 characters. A file asked for in it is read once to check that
// every character fits before anything is sent (a stream cannot change its encoding half
// way); when one does not (a Polish "ł", an emoji), the whole file is UTF-8 with a BOM
// instead, which Excel reads as well, and Content-Type says so. A row changed between the
// check and the write could still carry such a character: it is written as "?".
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { CSV_DELIMITER_NAMES, CSV_ENCODINGS, STANDARD_CSV, type CsvFormat } from '../../shared/csv-format.js';
import { encodeWindows1252, outsideWindows1252 } from '../../shared/windows-1252.js';

/** Querystring properties of a CSV export. */
export const csvFormatProperties = {
  delimiter: { type: 'string', enum: CSV_DELIMITER_NAMES, description: 'comma (default), semicolon or tab' },
  encoding: {
    type: 'string',
    enum: CSV_ENCODINGS,
    description: 'utf-8 (default), utf-8-bom, or windows-1252 (UTF-8 with a BOM when a character does not fit)',
  },
} as const;

export type CsvFormatQuery = Partial<CsvFormat>;

export const csvFormatOf = (query: CsvFormatQuery): CsvFormat => ({
  delimiter: query.delimiter ?? STANDARD_CSV.delimiter,
  encoding: query.encoding ?? STANDARD_CSV.encoding,
});

type Lines = AsyncIterable<string> | Iterable<string>;

async function fitsWindows1252(lines: Lines): Promise<boolean> {
  for await (const line of lines) if (outsideWindows1252(line, 1).length) return false;
  return true;
}

async function* withBom(lines: Lines): AsyncGenerator<string> {
  yield '\uFEFF';
  yield* lines;
}

async function* inWindows1252(lines: Lines): AsyncGenerator<Buffer> {
  for await (const line of lines) yield Buffer.from(encodeWindows1252(line));
}

/**
 * Sends the lines as a CSV attachment. `lines` is called once to write the file, and once
 * more before that when Windows-1252 is asked for (to check that every character fits).
 */
export async function sendCsv(
  reply: FastifyReply,
  fileName: string,
  format: CsvFormat,
  lines: () => Lines | Promise<Lines>,
): Promise<FastifyReply> {
  let encoding = format.encoding;
  if (encoding === 'windows-1252' && !(await fitsWindows1252(await lines()))) encoding = 'utf-8-bom';
  const body = await lines();
  const stream =
    encoding === 'windows-1252'
      ? Readable.from(inWindows1252(body))
      : Readable.from(encoding === 'utf-8-bom' ? withBom(body) : body);
  return reply
    .type(`text/csv; charset=${encoding === 'windows-1252' ? 'windows-1252' : 'utf-8'}`)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(stream);
}
