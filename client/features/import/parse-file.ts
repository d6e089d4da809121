// Parses a chosen file in a worker (a 100,000-row file must not freeze the page).
import type { FileEncoding } from './decode-file';
import type { ParsedCsv } from './parse-csv';

export type ParsedFile = ParsedCsv & { encoding: FileEncoding };

export async function parseFile(file: Blob): Promise<ParsedFile> {
  const bytes = await file.arrayBuffer();
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<ParsedFile>((resolve, reject) => {
      worker.onmessage = (message: MessageEvent<({ ok: true } & ParsedFile) | { ok: false; error: string }>) => {
        const data = message.data;
        if (data.ok) resolve(data);
        else reject(new Error(data.error));
      };
      worker.onerror = (event) => reject(new Error(event.message || 'Could not read the file'));
      worker.postMessage(bytes, [bytes]);
    });
  } finally {
    worker.terminate();
  }
}
