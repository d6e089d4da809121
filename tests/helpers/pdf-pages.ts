// Renders a PDF's pages in Chromium with pdf.js (pdfjs-dist, served to the page from
// node_modules under a made-up origin), and hands back each page's size, its text and
// PNG crops of the rectangles asked for (in PDF points from the top-left corner).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';

const ORIGIN = 'http://pdfjs.test';
const require = createRequire(import.meta.url);
const pdfjsBuild = path.dirname(require.resolve('pdfjs-dist/build/pdf.mjs'));

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedPdfPage {
  /** Page size in PDF points (1/72 in). */
  width: number;
  height: number;
  text: string;
  /** The whole page as PNG. */
  png: Buffer;
  /** One PNG per requested rectangle. */
  crops: Buffer[];
}

const PAGE_HTML = `<!doctype html><script type="module">
import * as pdfjs from '${ORIGIN}/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '${ORIGIN}/pdf.worker.mjs';
window.pdfjsLib = pdfjs;
</script>`;

/**
 * `crops(pageIndex, width, height)` says which rectangles to cut from each page (it may
 * depend on the page's size); `scale` is pixels per PDF point.
 */
export async function renderPdfPages(
  browser: Browser,
  pdf: Buffer,
  crops: (pageIndex: number) => Rect[],
  scale = 5,
): Promise<RenderedPdfPage[]> {
  const context = await browser.newContext();
  try {
    await context.route(`${ORIGIN}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === '' || name === 'index.html') return route.fulfill({ contentType: 'text/html', body: PAGE_HTML });
      if (!/^pdf(\.worker)?\.mjs$/.test(name)) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(path.join(pdfjsBuild, name)) });
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/index.html`);
    await page.waitForFunction(() => 'pdfjsLib' in window);
    const pageCount = await page.evaluate(async (data) => {
      const pdfjs = (window as any).pdfjsLib;
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      (window as any).pdfDoc = await pdfjs.getDocument({ data: bytes }).promise;
      return (window as any).pdfDoc.numPages as number;
    }, pdf.toString('base64'));

    const pages: RenderedPdfPage[] = [];
    for (let index = 0; index < pageCount; index++) {
      const rendered = await page.evaluate(
        async ({ index, scale, rects }) => {
          const doc = (window as any).pdfDoc;
          const pdfPage = await doc.getPage(index + 1);
          const viewport = pdfPage.getViewport({ scale });
          const canvas = document.createElement('canvas');
          canvas.width = Math.ceil(viewport.width);
          canvas.height = Math.ceil(viewport.height);
          const context = canvas.getContext('2d')!;
          context.fillStyle = '#fff';
          context.fillRect(0, 0, canvas.width, canvas.height);
          await pdfPage.render({ canvasContext: context, viewport }).promise;
          const text = (await pdfPage.getTextContent()).items.map((item: { str?: string }) => item.str ?? '').join(' ');
          const crops = rects.map((rect) => {
            const crop = document.createElement('canvas');
            crop.width = Math.round(rect.width * scale);
            crop.height = Math.round(rect.height * scale);
            crop
              .getContext('2d')!
              .drawImage(
                canvas,
                rect.x * scale,
                rect.y * scale,
                crop.width,
                crop.height,
                0,
                0,
                crop.width,
                crop.height,
              );
            return crop.toDataURL('image/png');
          });
          const [, , width, height] = pdfPage.view as number[];
          return { width, height, text, png: canvas.toDataURL('image/png'), crops };
        },
        { index, scale, rects: crops(index) },
      );
      const decode = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      pages.push({
        width: rendered.width!,
        height: rendered.height!,
        text: rendered.text,
        png: decode(rendered.png),
        crops: rendered.crops.map(decode),
      });
    }
    return pages;
  } finally {
    await context.close();
  }
}
