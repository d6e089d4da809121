// Reads a CSV file off the main thread: bytes in, decoded and parsed rows out.
import { decodeFile } from './decode-file';
import { parseCsv } from './parse-csv';

self.onmessage = (message: MessageEvent<ArrayBuffer>) => {
  try {
    const { text, encoding } = decodeFile(new Uint8Array(message.data));
    self.postMessage({ ok: true, encoding, ...parseCsv(text) });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
};
