// The barcode decoder: ZXing-C++ compiled to WebAssembly (zxing-wasm), loaded only when the
// camera opens (this module is imported dynamically). The .wasm file comes from our own
// origin, bundled by Vite as an asset: zxing-wasm would otherwise fetch it from a CDN,
// which a store's network or our Content-Security-Policy may well refuse.
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  },
});

const OPTIONS: ReaderOptions = {
  formats: ['EAN-13', 'UPC-A', 'EAN-8', 'Code128', 'QRCode'],
  tryHarder: true,
  maxNumberOfSymbols: 1,
};

/** The text of the first valid code in the frame, or null. */
export async function decodeFrame(frame: ImageData): Promise<string | null> {
  const results = await readBarcodes(frame, OPTIONS);
  const found = results.find((result) => result.isValid && result.text);
  return found ? found.text : null;
}
