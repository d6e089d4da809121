// Parses a CSV file's text into a header and numbered rows, the way a spreadsheet numbers
// them (the header is row 1; a quoted cell may span lines and is still one row).
// The delimiter is detected (comma, semicolon or tab). A cell that opens a quote and never
// closes it would swallow the rest of the file into one cell; instead its line becomes one
// rejected row and parsing goes on from the next line, so one typo costs one row.
import Papa from 'papaparse';

export type Delimiter = ',' | ';' | '\t';

export interface ParsedCsv {
  delimiter: Delimiter;
  header: string[];
  /** Data rows with their spreadsheet row numbers; `problem` rows could not be read. */
  rows: Array<{ row: number; cells: string[] } | { row: number; problem: string; line: string }>;
}

export const UNTERMINATED_QUOTE = 'Unterminated quote: a cell opens a " and never closes it';

/**
 * The delimiter that splits the header into the most cells while the next rows have as
 * many (papaparse's own guess favours commas on small files, which breaks "Prix;4,50").
 */
export function detectDelimiter(text: string): Delimiter {
  const sample = text.slice(0, 64 * 1024);
  let best: { delimiter: Delimiter; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of [',', ';', '\t'] as Delimiter[]) {
    const lines = Papa.parse<string[]>(sample, { delimiter, preview: 20 }).data.filter(
      (r) => r.length > 1 || r[0] !== '',
    );
    const width = lines[0]?.length ?? 0;
    if (width < 2) continue;
    const consistent = lines.slice(1).filter((r) => r.length === width).length;
    const score = width * (1 + consistent);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

export function parseCsv(text: string): ParsedCsv {
  const delimiter = detectDelimiter(text);
  let header: string[] | null = null;
  const rows: ParsedCsv['rows'] = [];
  let rowNumber = 0;
  let start = 0;
  while (start < text.length) {
    let restartAt: number | null = null;
    let rowStart = start;
    const base = start;
    Papa.parse<string[]>(text.slice(start), {
      delimiter,
      step: (result, parser) => {
        const end = base + result.meta.cursor;
        if (result.errors.some((e) => e.type === 'Quotes')) {
          // Cut the line where the broken row began; parse again from the line after it.
          const newline = text.indexOf('\n', rowStart);
          const lineEnd = newline === -1 ? text.length : newline;
          rowNumber++;
          rows.push({
            row: rowNumber,
            problem: UNTERMINATED_QUOTE,
            line: text.slice(rowStart, lineEnd).replace(/\r$/, ''),
          });
          restartAt = lineEnd + 1;
          parser.abort();
          return;
        }
        rowStart = end;
        const cells = result.data;
        if (end >= text.length && cells.length === 1 && cells[0] === '') return; // the file's last line break
        rowNumber++;
        if (!header) {
          header = cells.map((c) => c.trim());
          return;
        }
        if (!isBlank(cells)) rows.push({ row: rowNumber, cells });
      },
    });
    if (restartAt === null) break;
    start = restartAt;
  }
  return { delimiter, header: header ?? [], rows };
}
