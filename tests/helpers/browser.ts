// Headless Chromium for end-to-end tests: the system browser (CHROMIUM_PATH or
// /usr/bin/chromium) driven by playwright-core. No browser is ever downloaded.
import { chromium, type Browser } from 'playwright-core';

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/**
 * Arguments for a fake camera that plays a video file (Y4M or MJPEG, looped) and a
 * camera permission granted without a prompt: pass to launchBrowser.
 */
export function fakeCameraArgs(videoFile: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${videoFile}`,
  ];
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

/**
 * Options for a browser test suite: one retry. A real Chromium on a 2-core CI machine at
 * load 8 now and then misses a moment no user would (three landings in a row failed on a
 * different one each). The flaky reporter (flaky-reporter.ts) lists every test that needed
 * the retry, with the first attempt's error, so each is still seen and fixed.
 */
export const BROWSER_TESTS = { retry: 1 } as const;
