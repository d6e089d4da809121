// CSV formats: the list separator a browser's locale implies, what each
// store choice stands for, the export's query, Windows-1252 both ways, the bytes of the
// rejected rows (BOM, Windows-1252, the fallback), and the settings decision that records
// an imported file's format once.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { csvLine, csvNumberCell } from '../../shared/csv-cell.js';
import { decodeWindows1252, encodeWindows1252, outsideWindows1252 } from '../../shared/windows-1252.js';
import {
  csvFormatParams,
  formatOfChoice,
  localeListSeparator,
  withCsvFormat,
} from '../../client/lib/csv-export-format.js';
import { csvBlob } from '../../client/lib/csv-blob.js';
import { parseCsv } from '../../client/features/import/parse-csv.js';
import { rejectedCsv } from '../../client/features/import/rejected-csv.js';
import { decideSettings } from '../../server/accounts/settings/decide.js';

const bytes = async (blob: Blob) => [...new Uint8Array(await blob.arrayBuffer())];

describe('CSV formats', () => {
  it("takes the list separator from the browser's locale, as Windows does", () => {
    expect(localeListSeparator('de-DE')).toBe('semicolon');
    expect(localeListSeparator('fr-FR')).toBe('semicolon');
    expect(localeListSeparator('es-ES')).toBe('semicolon');
    expect(localeListSeparator('de-CH')).toBe('semicolon'); // 4.5, yet ";" on Swiss Windows
    expect(localeListSeparator('en-US')).toBe('comma');
    expect(localeListSeparator('en-GB')).toBe('comma');
    expect(localeListSeparator('not a locale!')).toBe('comma');
  });

  it('turns a store choice into a format, and a format into the export query', () => {
    const file = { delimiter: 'tab', encoding: 'windows-1252' } as const;
    expect(formatOfChoice('excel', file, 'fr-FR')).toEqual({ delimiter: 'semicolon', encoding: 'utf-8-bom' });
    expect(formatOfChoice('excel', null, 'en-US')).toEqual({ delimiter: 'comma', encoding: 'utf-8-bom' });
    expect(formatOfChoice('file', file)).toEqual(file);
    expect(formatOfChoice('file', null)).toEqual({ delimiter: 'comma', encoding: 'utf-8' }); // no import yet
    expect(formatOfChoice('standard', file)).toEqual({ delimiter: 'comma', encoding: 'utf-8' });
    // The standard format adds nothing: the address is the one every export always had.
    expect(csvFormatParams({ delimiter: 'comma', encoding: 'utf-8' })).toBe('');
    expect(withCsvFormat('/inventory/export.csv', { delimiter: 'comma', encoding: 'utf-8' })).toBe(
      '/inventory/export.csv',
    );
    expect(withCsvFormat('/inventory/export.csv?q=x', { delimiter: 'semicolon', encoding: 'utf-8-bom' })).toBe(
      '/inventory/export.csv?q=x&delimiter=semicolon&encoding=utf-8-bom',
    );
  });

  it('writes decimal commas only where asked, and joins with any delimiter', () => {
    expect(csvNumberCell(4.5)).toBe('4.5');
    expect(csvNumberCell(-1234.25, true)).toBe('-1234,25');
    expect(csvNumberCell(12, true)).toBe('12');
    expect(csvLine(['"a"', '1'], ';')).toBe('"a";1\n');
    expect(csvLine(['"a"', '1'])).toBe('"a",1\n');
  });

  it('writes and reads Windows-1252 by its table, every character of the code page both ways', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = decodeWindows1252(all);
    expect(text.slice(0x80, 0x81)).toBe('€');
    expect([...encodeWindows1252(text)]).toEqual([...all]);
    expect([...encodeWindows1252('Crème €')]).toEqual([0x43, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x80]);
    expect(outsideWindows1252('Crème fraîche €')).toEqual([]);
    expect(outsideWindows1252('Łódź 😀 Ω')).toEqual(['Ł', 'ź', '😀']);
    // What cannot be held becomes one "?" each (an emoji is two UTF-16 units and one "?").
    expect(String.fromCharCode(...encodeWindows1252('Ł😀a'))).toBe('??a');
  });

  it("saves the rejected rows in the file's bytes, with a BOM, or as UTF-8 with a BOM when Windows-1252 cannot hold them", async () => {
    const parsed = parseCsv('Nom;Prix\nPâte à crêpes;trois\n');
    const problems = [{ row: 2, column: 'price' as const, message: 'price must be number' }];
    const text = rejectedCsv(parsed, problems, () => 'Prix');
    expect(text).toBe('Nom;Prix;error\r\nPâte à crêpes;trois;Row 2, Prix: price must be number');
    // Another delimiter when another format was picked.
    expect(rejectedCsv(parsed, problems, () => 'Prix', ',').split('\r\n')).toEqual([
      'Nom,Prix,error',
      'Pâte à crêpes,trois,"Row 2, Prix: price must be number"',
    ]);

    const ansi = csvBlob(text, { delimiter: 'semicolon', encoding: 'windows-1252' });
    expect(ansi.encoding).toBe('windows-1252');
    expect((await bytes(ansi.blob)).slice(16, 20)).toEqual([0x50, 0xe2, 0x74, 0x65]); // "Pâte"
    const bom = csvBlob(text, { delimiter: 'semicolon', encoding: 'utf-8-bom' });
    expect((await bytes(bom.blob)).slice(0, 4)).toEqual([0xef, 0xbb, 0xbf, 0x4e]);
    expect((await bytes(csvBlob(text, { delimiter: 'semicolon', encoding: 'utf-8' }).blob))[0]).toBe(0x4e);

    const polish = csvBlob('Nazwa\r\nSer z Łodzi', { delimiter: 'comma', encoding: 'windows-1252' });
    expect(polish).toMatchObject({ encoding: 'utf-8-bom', unfit: ['Ł'] });
    expect(new TextDecoder().decode(await polish.blob.arrayBuffer())).toBe('Nazwa\r\nSer z Łodzi'); // the decoder takes the BOM off
    expect((await bytes(polish.blob)).slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("records an imported file's format only when it changes", () => {
    const now = new Date();
    const ansi = { delimiter: 'semicolon', encoding: 'windows-1252' } as const;
    const state = { ...DEFAULT_SETTINGS, importFormat: ansi };
    expect(decideSettings({ type: 'ChangeSettings', changes: { importFormat: { ...ansi } } }, state, now)).toEqual([]);
    expect(
      decideSettings(
        { type: 'ChangeSettings', changes: { importFormat: { delimiter: 'comma', encoding: 'utf-8' } } },
        state,
        now,
      ),
    ).toEqual([
      { type: 'SettingsChanged', data: { changes: { importFormat: { delimiter: 'comma', encoding: 'utf-8' } } } },
    ]);
    expect(decideSettings({ type: 'ChangeSettings', changes: { exportFormat: 'excel' } }, state, now)).toEqual([
      { type: 'SettingsChanged', data: { changes: { exportFormat: 'excel' } } },
    ]);
    expect(decideSettings({ type: 'ChangeSettings', changes: { exportFormat: null } }, state, now)).toEqual([]);
  });
});
