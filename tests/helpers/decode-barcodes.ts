// Reads barcodes out of images in Node with zxing-wasm (the same decoder the scanner uses
// in the browser), the .wasm file read from node_modules.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
let prepared = false;

export interface DecodedCode {
  format: string;
  text: string;
}

/** Every QR code, Code 128 and EAN-13 found in a PNG, each with its format ('QRCode', 'Code128', 'EAN-13'). */
export async function decodeCodes(png: Buffer): Promise<DecodedCode[]> {
  if (!prepared) {
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    });
    prepared = true;
  }
  const results = await readBarcodes(new Uint8Array(png), {
    formats: ['QRCode', 'Code128', 'EAN-13'],
    tryHarder: true,
    maxNumberOfSymbols: 8,
  });
  return results.filter((result) => result.isValid).map((result) => ({ format: result.format, text: result.text }));
}
