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
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${videoFile}`];
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', ...extraArgs],
  });
}
