// Videos for Chromium's fake camera (--use-file-for-fake-video-capture): a code drawn by
// bwip-js in Node, centred on white, written as raw Y4M (4:2:0) frames. Chromium loops
// the file, so the "camera" keeps showing the code until the page reads it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { PNG } from 'pngjs';

const WIDTH = 640;
const HEIGHT = 480;
const FRAMES = 5;

export type CameraCode = { kind: 'ean13'; text: string } | { kind: 'qrcode'; text: string };

/** The code as a grey-scale image (0 = black, 255 = white). */
async function drawCode(code: CameraCode): Promise<{ width: number; height: number; luma: Uint8Array }> {
  const png = await bwipjs.toBuffer(
    code.kind === 'ean13'
      ? { bcid: 'ean13', text: code.text, scale: 3, height: 22, includetext: true }
      : { bcid: 'qrcode', text: code.text, scale: 4 },
  );
  const image = PNG.sync.read(png);
  const luma = new Uint8Array(image.width * image.height);
  for (let i = 0; i < luma.length; i++) {
    const [r, g, b, a] = [image.data[i * 4]!, image.data[i * 4 + 1]!, image.data[i * 4 + 2]!, image.data[i * 4 + 3]!];
    // bwip-js draws black on transparent: no ink is white paper.
    const ink = (a / 255) * (1 - (0.299 * r + 0.587 * g + 0.114 * b) / 255);
    luma[i] = Math.round(255 * (1 - ink));
  }
  return { width: image.width, height: image.height, luma };
}

/** Writes a Y4M file showing the code and returns its path. */
export async function writeFakeCameraVideo(code: CameraCode): Promise<string> {
  const drawn = await drawCode(code);
  if (drawn.width > WIDTH - 40 || drawn.height > HEIGHT - 40)
    throw new Error(`Code image ${drawn.width}x${drawn.height} does not fit the frame`);
  const y = new Uint8Array(WIDTH * HEIGHT).fill(255);
  const left = Math.floor((WIDTH - drawn.width) / 2);
  const top = Math.floor((HEIGHT - drawn.height) / 2);
  for (let row = 0; row < drawn.height; row++) {
    y.set(drawn.luma.subarray(row * drawn.width, (row + 1) * drawn.width), (top + row) * WIDTH + left);
  }
  const chroma = new Uint8Array((WIDTH / 2) * (HEIGHT / 2)).fill(128); // no colour
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'stockroom-camera-')), `${code.kind}.y4m`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: FRAMES }, () => frame)]));
  return file;
}
