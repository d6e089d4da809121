// Export CSV: the server streams the file; the browser saves it under a dated name. The
// download needs the ID token, so the app passes in how to fetch with it.
import type { CsvEncoding, CsvFormat } from '../../../shared/csv-format';
import { encodingOfDownload, withCsvFormat } from '../../lib/csv-export-format';
import { saveBlob } from '../../lib/save-file';

export type AuthorizedFetch = (path: string) => Promise<Response>;

export function csvFileName(now = new Date()): string {
  return `activity-log-${now.toISOString().slice(0, 10)}.csv`;
}

/** Saves the file in the format; answers its real encoding (Windows-1252 may come back as UTF-8 with a BOM). */
export async function downloadCsv(
  fetchWithToken: AuthorizedFetch,
  path: string,
  format: CsvFormat,
): Promise<CsvEncoding> {
  const res = await fetchWithToken(withCsvFormat(path, format));
  if (!res.ok) {
    let message = `HTTP error! status: ${res.status}`;
    try {
      const body = (await res.json()) as { error?: string };
      if (body.error) message = body.error;
    } catch {
      /* not JSON: keep the status */
    }
    throw new Error(message);
  }
  const blob = await res.blob();
  saveBlob(blob, csvFileName());
  return encodingOfDownload(blob, format.encoding);
}
