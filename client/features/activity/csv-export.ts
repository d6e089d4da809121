// Export CSV: the server streams the file; the browser saves it under a dated name. The
// download needs the ID token, so the app passes in how to fetch with it.
import { saveBlob } from '../../lib/save-file';

export type AuthorizedFetch = (path: string) => Promise<Response>;

export function csvFileName(now = new Date()): string {
  return `activity-log-${now.toISOString().slice(0, 10)}.csv`;
}

export async function downloadCsv(fetchWithToken: AuthorizedFetch, path: string): Promise<void> {
  const res = await fetchWithToken(path);
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
  saveBlob(await res.blob(), csvFileName());
}
