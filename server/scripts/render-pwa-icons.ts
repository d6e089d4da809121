// Renders the app icons of the web app manifest from client/public/favicon.svg in headless
// Chromium (the system browser): 192 and 512 px "any" icons (the SVG as it is), and a 512 px
// maskable one (the mark inside the central safe zone on the brand colour, no rounded
// corners, since the launcher applies its own mask). The PNGs are committed; run this again
// only when the favicon changes:
//   node --import tsx server/scripts/render-pwa-icons.ts [path-to-chromium]
// Then, when the Debian packages pngquant and optipng are installed, the PNGs are shrunk
// (17 KB -> 4 KB for the 192 px icon, which phones fetch during the first load).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const svg = readFileSync(path.join(root, 'client/public/favicon.svg'), 'utf8');
const outDir = path.join(root, 'client/public/icons');

function page(size: number, maskable: boolean): string {
  // Maskable: the safe zone is the central circle of 80% diameter; the mark (about half its box) stays well inside it.
  const inner = maskable ? Math.round(size * 0.85) : size;
  const background = maskable ? 'linear-gradient(135deg, #6366f1, #8b5cf6)' : 'transparent';
  const mark = maskable ? svg.replace(/<rect [^>]*\/>/, '') : svg;
  return `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${background}">
    <div style="width:${inner}px;height:${inner}px">${mark.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`;
}

const browser = await chromium.launch({
  executablePath: process.argv[2] ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
try {
  for (const [file, size, maskable] of [
    ['icon-192.png', 192, false],
    ['icon-512.png', 512, false],
    ['icon-maskable-512.png', 512, true],
  ] as const) {
    const tab = await browser.newPage({ viewport: { width: size, height: size } });
    await tab.setContent(page(size, maskable));
    await tab.screenshot({ path: path.join(outDir, file), omitBackground: !maskable });
    await tab.close();
    console.info(`wrote client/public/icons/${file}`);
  }
} finally {
  await browser.close();
}

const files = ['icon-192.png', 'icon-512.png', 'icon-maskable-512.png'].map((file) => path.join(outDir, file));
for (const [tool, args] of [
  ['pngquant', ['--quality', '80-98', '--speed', '1', '--strip', '--force', '--ext', '.png', ...files]],
  ['optipng', ['-quiet', '-o5', ...files]],
] as const) {
  const run = spawnSync(tool, args, { stdio: 'inherit' });
  if (run.error) console.info(`${tool} is not installed: the icons are left as rendered`);
}
